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

function logSumExp(values: Float64Array | Float32Array, count: number): number {
  let max = -Infinity;
  for (let i = 0; i < count; i++) max = Math.max(max, values[i]!);
  let sum = 0;
  for (let i = 0; i < count; i++) sum += Math.exp(values[i]! - max);
  return max + Math.log(sum);
}

export function chooseToken(logits: Float32Array, params: SamplingParams, rng: Rng): Choice {
  const V = logits.length;
  const modelLse = logSumExp(logits, V);
  if (params.temperature === 0) {
    let best = 0;
    for (let i = 1; i < V; i++) if (logits[i]! > logits[best]!) best = i;
    return { token: best, logprob: logits[best]! - modelLse, samplingLogprob: 0 };
  }
  const scaled = new Float64Array(V);
  for (let i = 0; i < V; i++) scaled[i] = logits[i]! / params.temperature;
  const lse = logSumExp(scaled, V);
  if (params.topP >= 1) {
    // No truncation: walk the tokens in id order (no sort needed).
    let u = rng.next();
    let pick = V - 1;
    for (let i = 0; i < V; i++) {
      u -= Math.exp(scaled[i]! - lse);
      if (u < 0) {
        pick = i;
        break;
      }
    }
    return { token: pick, logprob: logits[pick]! - modelLse, samplingLogprob: scaled[pick]! - lse };
  }
  const order = Array.from({ length: V }, (_, i) => i);
  order.sort((a, b) => scaled[b]! - scaled[a]! || a - b);
  // Nucleus: the smallest prefix of tokens by probability whose mass reaches topP.
  let kept = 0;
  let mass = 0;
  while (kept < V && (kept === 0 || mass < params.topP)) {
    mass += Math.exp(scaled[order[kept]!]! - lse);
    kept++;
  }
  let u = rng.next() * mass;
  let pick = order[kept - 1]!;
  for (let i = 0; i < kept; i++) {
    u -= Math.exp(scaled[order[i]!]! - lse);
    if (u < 0) {
      pick = order[i]!;
      break;
    }
  }
  return { token: pick, logprob: logits[pick]! - modelLse, samplingLogprob: scaled[pick]! - lse - Math.log(mass) };
}
