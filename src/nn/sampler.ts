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

/** Largest value of the first `count` entries. */
function maxOf(values: Float32Array, count: number): number {
  let max = -Infinity;
  for (let i = 0; i < count; i++) max = Math.max(max, values[i]!);
  return max;
}

/** Per-thread buffer of exp((logit - max) / temperature), grown as needed. */
let weights = new Float64Array(0);

export function chooseToken(logits: Float32Array, params: SamplingParams, rng: Rng): Choice {
  const V = logits.length;
  const max = maxOf(logits, V);
  let modelSum = 0;
  for (let i = 0; i < V; i++) modelSum += Math.exp(logits[i]! - max);
  const modelLse = max + Math.log(modelSum);
  if (params.temperature === 0) {
    let best = 0;
    for (let i = 1; i < V; i++) if (logits[i]! > logits[best]!) best = i;
    return { token: best, logprob: logits[best]! - modelLse, samplingLogprob: 0 };
  }
  // Unnormalised sampling weights w_i = exp(l_i / T - max / T) (max / T is the largest l_i / T).
  if (weights.length < V) weights = new Float64Array(V);
  const t = params.temperature;
  let sum = 0;
  if (t === 1) {
    for (let i = 0; i < V; i++) sum += weights[i] = Math.exp(logits[i]! - max);
  } else {
    for (let i = 0; i < V; i++) sum += weights[i] = Math.exp(logits[i]! / t - max / t);
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
