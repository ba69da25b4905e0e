// Choosing the next token from one row of logits: temperature, then nucleus (top-p) truncation, then a draw
// from the sequence's own seeded stream. Temperature 0 is greedy (ties go to the lowest id). Reports the
// token's log-prob under the model (temperature 1, no truncation: what `logprobs` recomputes, what RL
// ratios compare against) and under the distribution actually sampled from.
import type { Rng } from "../core/rng.js";

export interface SamplingParams {
  readonly temperature: number;
  readonly topP: number;
}

export interface Choice {
  readonly token: number;
  readonly logprob: number;
  readonly samplingLogprob: number;
}

/**
 * What a draw needs from one row of logits: the unnormalised sampling weights w_i = exp((l_i - max) / T)
 * (T = 1 when greedy), their sum, and the model's log-sum-exp at temperature 1. The samplingWeights kernel
 * computes the same for a batch of rows (float32); `prepareRow` is the float64 definition.
 */
export interface PreparedRow {
  readonly weights: ArrayLike<number>;
  readonly sum: number;
  readonly modelLse: number;
}

export function prepareRow(logits: Float32Array, temperature: number): PreparedRow {
  const V = logits.length;
  let max = -Infinity;
  for (let i = 0; i < V; i++) max = Math.max(max, logits[i]!);
  const t = temperature > 0 ? temperature : 1;
  const weights = new Float64Array(V);
  let modelSum = 0;
  let sum = 0;
  for (let i = 0; i < V; i++) {
    const e = Math.exp(logits[i]! - max);
    modelSum += e;
    sum += weights[i] = t === 1 ? e : Math.exp((logits[i]! - max) / t);
  }
  return { weights, sum, modelLse: max + Math.log(modelSum) };
}

export function chooseToken(logits: Float32Array, params: SamplingParams, rng: Rng, prepared: PreparedRow = prepareRow(logits, params.temperature)): Choice {
  const V = logits.length;
  const { weights, sum, modelLse } = prepared;
  if (params.temperature === 0) {
    let best = 0;
    for (let i = 1; i < V; i++) if (logits[i]! > logits[best]!) best = i;
    return { token: best, logprob: logits[best]! - modelLse, samplingLogprob: 0 };
  }
  const logProb = (i: number): number => Math.log(weights[i]! / sum);
  if (params.topP >= 1) {
    // No truncation: walk the tokens in id order (no sort needed).
    let u = rng.next() * sum;
    let pick = V - 1;
    for (let i = 0; i < V; i++) {
      u -= weights[i]!;
      if (u < 0) {
        pick = i;
        break;
      }
    }
    return { token: pick, logprob: logits[pick]! - modelLse, samplingLogprob: logProb(pick) };
  }
  const order = Array.from({ length: V }, (_, i) => i);
  order.sort((a, b) => weights[b]! - weights[a]! || a - b);
  // Nucleus: the smallest prefix of tokens by probability whose mass reaches topP.
  let kept = 0;
  let mass = 0;
  while (kept < V && (kept === 0 || mass < params.topP * sum)) mass += weights[order[kept++]!]!;
  let u = rng.next() * mass;
  let pick = order[kept - 1]!;
  for (let i = 0; i < kept; i++) {
    u -= weights[order[i]!]!;
    if (u < 0) {
      pick = order[i]!;
      break;
    }
  }
  return { token: pick, logprob: logits[pick]! - modelLse, samplingLogprob: Math.log(weights[pick]! / mass) };
}
