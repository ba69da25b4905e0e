// Choosing the next token from one row of logits: temperature, then truncation (min-p, top-k, then nucleus top-p
// over what they keep, vLLM's order), then a draw from the sequence's own seeded stream. Temperature 0 is greedy
// (ties go to the lowest id). Reports the
// token's log-prob under the model (temperature 1, no truncation: what `logprobs` recomputes, what RL
// ratios compare against) and under the distribution actually sampled from.
//
// A row may be restricted to some tokens (a mask: constrained decoding, stop tokens held back before a minimum
// length): the draw is then from the model's distribution renormalised over the allowed tokens (temperature and
// nucleus applied to them), recomputed in float64 from the logits; the model log-prob stays the unrestricted
// one. `alternatives` lists the k most likely tokens of a row (the top_logprobs of OpenAI's API).
import type { Rng } from "../core/rng.js";

export interface SamplingParams {
  readonly temperature: number;
  readonly topP: number;
  /** Keep the k most likely tokens (0 or absent: all). */
  readonly topK?: number;
  /** Keep tokens at least minP times as likely as the most likely one (0 or absent: all). */
  readonly minP?: number;
}

/** True when the params truncate the distribution (top-p, top-k or min-p). */
export function truncates(params: SamplingParams): boolean {
  return params.topP < 1 || (params.topK ?? 0) > 0 || (params.minP ?? 0) > 0;
}

export interface Choice {
  readonly token: number;
  readonly logprob: number;
  readonly samplingLogprob: number;
}

/** Tokens a draw may take: allowed[i] = 1. */
export type TokenMask = Uint8Array;

/** One of a row's most likely tokens: its log-prob under the model, and under the distribution sampled from (-Infinity outside it). */
export type Alternative = Choice;

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

/**
 * The kept tokens: ids by weight (ties: lower id first); min-p keeps those whose weight is at least minP times the
 * largest, top-k the first k of them, then top-p the smallest prefix of those reaching topP of their mass. Returns
 * the order, how many are kept and their mass.
 */
function nucleus(
  weights: ArrayLike<number>,
  sum: number,
  params: SamplingParams,
): { order: number[]; kept: number; mass: number } {
  const V = weights.length;
  const order = Array.from({ length: V }, (_, i) => i);
  order.sort((a, b) => weights[b]! - weights[a]! || a - b);
  let limit = V;
  let limitMass = sum;
  const topK = params.topK ?? 0;
  const minP = params.minP ?? 0;
  if (topK > 0 || minP > 0) {
    const floor = minP * weights[order[0]!]!;
    limit = 0;
    limitMass = 0;
    while (limit < V && (topK <= 0 || limit < topK) && (limit === 0 || weights[order[limit]!]! >= floor))
      limitMass += weights[order[limit++]!]!;
  }
  // The smallest prefix of the kept tokens by probability whose mass reaches topP.
  let kept = 0;
  let mass = 0;
  while (kept < limit && (kept === 0 || mass < params.topP * limitMass)) mass += weights[order[kept++]!]!;
  return { order, kept, mass };
}

export function chooseToken(
  logits: Float32Array,
  params: SamplingParams,
  rng: Rng,
  prepared: PreparedRow = prepareRow(logits, params.temperature),
  allowed?: TokenMask,
): Choice {
  if (allowed !== undefined) return chooseAllowed(logits, params, rng, prepared.modelLse, allowed);
  const V = logits.length;
  const { weights, sum, modelLse } = prepared;
  if (params.temperature === 0) {
    let best = 0;
    for (let i = 1; i < V; i++) if (logits[i]! > logits[best]!) best = i;
    return { token: best, logprob: logits[best]! - modelLse, samplingLogprob: 0 };
  }
  const logProb = (i: number): number => Math.log(weights[i]! / sum);
  if (!truncates(params)) {
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
  const { order, kept, mass } = nucleus(weights, sum, params);
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

/**
 * The distribution sampled from over the allowed tokens: weights exp((l_i - max over allowed) / T) (T = 1 when
 * greedy), 0 elsewhere, in float64. Undefined when no token is allowed.
 */
export function allowedRow(
  logits: Float32Array,
  temperature: number,
  allowed: TokenMask,
): { weights: Float64Array; sum: number } | undefined {
  const V = logits.length;
  let max = -Infinity;
  for (let i = 0; i < V; i++) if (allowed[i] === 1) max = Math.max(max, logits[i]!);
  if (max === -Infinity) return undefined;
  const t = temperature > 0 ? temperature : 1;
  const weights = new Float64Array(V);
  let sum = 0;
  for (let i = 0; i < V; i++) if (allowed[i] === 1) sum += weights[i] = Math.exp((logits[i]! - max) / t);
  return { weights, sum };
}

/** chooseToken over the allowed tokens only (at least one must be allowed). */
function chooseAllowed(
  logits: Float32Array,
  params: SamplingParams,
  rng: Rng,
  modelLse: number,
  allowed: TokenMask,
): Choice {
  const V = logits.length;
  const row = allowedRow(logits, params.temperature, allowed);
  if (row === undefined) throw new RangeError("chooseToken: the mask allows no token");
  const choice = (token: number, samplingLogprob: number): Choice => ({
    token,
    logprob: logits[token]! - modelLse,
    samplingLogprob,
  });
  if (params.temperature === 0) {
    let best = -1;
    for (let i = 0; i < V; i++) if (allowed[i] === 1 && (best < 0 || logits[i]! > logits[best]!)) best = i;
    return choice(best, 0);
  }
  const { weights, sum } = row;
  const { order, kept, mass } = truncates(params)
    ? nucleus(weights, sum, params)
    : { order: undefined, kept: V, mass: sum };
  const at = (i: number): number => (order === undefined ? i : order[i]!);
  let u = rng.next() * mass;
  let pick = -1;
  for (let i = 0; i < kept; i++) {
    const token = at(i);
    if (weights[token]! <= 0) continue;
    pick = token; // the last allowed token with weight, should rounding leave u >= 0
    u -= weights[token]!;
    if (u < 0) break;
  }
  return choice(pick, Math.log(weights[pick]! / mass));
}

/**
 * The k most likely tokens of a row under the model (by logit; ties: lower id first), with their log-probs under
 * the model and under the distribution sampled from (temperature, nucleus, mask; -Infinity for a token it cannot
 * give; greedy: 0 for the token it takes).
 */
export function alternatives(
  logits: Float32Array,
  params: SamplingParams,
  prepared: PreparedRow,
  k: number,
  allowed?: TokenMask,
): Alternative[] {
  const V = logits.length;
  const top = Array.from({ length: V }, (_, i) => i)
    .sort((a, b) => logits[b]! - logits[a]! || a - b)
    .slice(0, Math.min(k, V));
  const sampling = samplingLogprobs(logits, params, prepared, allowed);
  return top.map((token) => ({ token, logprob: logits[token]! - prepared.modelLse, samplingLogprob: sampling(token) }));
}

/** log p(token) under the distribution a row is sampled from (see alternatives). */
export function samplingLogprobs(
  logits: Float32Array,
  params: SamplingParams,
  prepared: PreparedRow,
  allowed: TokenMask | undefined,
): (token: number) => number {
  const V = logits.length;
  const row =
    allowed === undefined
      ? { weights: prepared.weights, sum: prepared.sum }
      : allowedRow(logits, params.temperature, allowed);
  if (row === undefined) return () => -Infinity;
  if (params.temperature === 0) {
    let best = -1;
    for (let i = 0; i < V; i++)
      if ((allowed === undefined || allowed[i] === 1) && (best < 0 || logits[i]! > logits[best]!)) best = i;
    return (token) => (token === best ? 0 : -Infinity);
  }
  const { weights, sum } = row;
  if (!truncates(params)) return (token) => (weights[token]! > 0 ? Math.log(weights[token]! / sum) : -Infinity);
  const { order, kept, mass } = nucleus(weights, sum, params);
  const inside = new Set(order.slice(0, kept));
  return (token) => (inside.has(token) && weights[token]! > 0 ? Math.log(weights[token]! / mass) : -Infinity);
}
