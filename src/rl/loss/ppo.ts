// The policy-gradient core as per-token coefficients on log p, so that any backend that can take a step on
// loss = -sum_t c_t log p(y_t) / N can train with it (the in-process model, or a remote trainer).
//
//   r_t       = exp(logp_t - logp_old_t)                                   importance ratio vs the behaviour policy
//   J_t       = min(r_t A_t, clip(r_t, 1 - eps_low, 1 + eps_high) A_t)     clipped objective (clip-higher: 0.2 / 0.28)
//   dJ_t/dlogp_t = r_t A_t when the unclipped term is the minimum, else 0
//   KL_t (k3) = exp(ref_t - logp_t) - (ref_t - logp_t) - 1                 low-variance KL to the reference model
//   d(beta KL_t)/dlogp_t = beta (1 - exp(ref_t - logp_t))
//   loss      = (1/N) sum_t [ -J_t + beta KL_t ]                             token-mean over the N policy tokens
// so c_t = r_t A_t [not clipped] - beta (1 - exp(ref_t - logp_t)).
// Stats: clip fraction (tokens whose gradient the clip removed), mean KL, mean ratio.

export interface PpoOptions {
  readonly clipLow: number;
  readonly clipHigh: number;
  /** KL coefficient beta (0: no reference model needed). */
  readonly klCoefficient: number;
}

export const DEFAULT_PPO: PpoOptions = { clipLow: 0.2, clipHigh: 0.28, klCoefficient: 0 };

export interface PpoTokens {
  /** log p of each policy token under the current weights. */
  readonly logprobs: Float32Array;
  /** log p under the behaviour policy (the one that sampled). */
  readonly oldLogprobs: Float32Array;
  /** log p under the frozen reference model (only read when beta > 0). */
  readonly refLogprobs?: Float32Array;
  readonly advantages: Float32Array;
  /** 1 for policy tokens, 0 for everything else (prompts, padding). */
  readonly mask: Float32Array;
}

export interface PpoResult {
  /** c_t for loss = -sum c_t log p_t / N. */
  readonly coefficients: Float32Array;
  /** Value of the loss (1/N) sum (-J + beta KL). */
  readonly loss: number;
  readonly clipFraction: number;
  readonly kl: number;
  readonly meanRatio: number;
  /** N: the number of policy tokens. */
  readonly tokens: number;
}

export function ppoCoefficients(input: PpoTokens, options: PpoOptions = DEFAULT_PPO): PpoResult {
  const n = input.logprobs.length;
  const coefficients = new Float32Array(n);
  let tokens = 0;
  let clipped = 0;
  let klSum = 0;
  let ratioSum = 0;
  let lossSum = 0;
  for (let t = 0; t < n; t++) {
    if (input.mask[t]! === 0) continue;
    tokens++;
    const logp = input.logprobs[t]!;
    const advantage = input.advantages[t]!;
    const ratio = Math.exp(logp - input.oldLogprobs[t]!);
    const clippedRatio = Math.min(Math.max(ratio, 1 - options.clipLow), 1 + options.clipHigh);
    const unclippedTerm = ratio * advantage;
    const clippedTerm = clippedRatio * advantage;
    const active = unclippedTerm <= clippedTerm;
    if (!active) clipped++;
    let coefficient = active ? unclippedTerm : 0;
    let term = -Math.min(unclippedTerm, clippedTerm);
    if (options.klCoefficient > 0) {
      const delta = (input.refLogprobs?.[t] ?? logp) - logp;
      const expDelta = Math.exp(delta);
      const kl = expDelta - delta - 1;
      klSum += kl;
      term += options.klCoefficient * kl;
      coefficient -= options.klCoefficient * (1 - expDelta);
    }
    coefficients[t] = coefficient;
    ratioSum += ratio;
    lossSum += term;
  }
  const denominator = Math.max(1, tokens);
  return {
    coefficients,
    loss: lossSum / denominator,
    clipFraction: clipped / denominator,
    kl: klSum / denominator,
    meanRatio: ratioSum / denominator,
    tokens,
  };
}
