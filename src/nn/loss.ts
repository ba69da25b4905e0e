// From logits to what RL and SFT need, and back.
//
// Forward, per row t with logits z (V): log p(y_t) = z[y_t] - logsumexp(z), entropy H_t = -sum_i p_i log p_i.
// Backward from per-token coefficients c_t (and optional entropy coefficients e_t):
//   loss = -(sum_t c_t log p(y_t) + sum_t e_t H_t) / normaliser
//   dloss/dz_i = (c_t (p_i - [i = y_t]) + e_t p_i (log p_i + H_t)) / normaliser
// Cross-entropy is c_t = mask_t, normaliser = sum of the mask; PPO/GRPO/KL terms are the trainer's c_t.
// Rows whose target is -1 have no log-prob (0 is reported) and must have c_t = 0. Float64 inside a row.

/** Writes logprobs[t] and entropy[t] for `rows` rows of logits (rows, vocab). */
export function tokenLogprobs(
  logits: Float32Array,
  targets: Int32Array,
  rows: number,
  vocab: number,
  logprobs: Float32Array,
  entropy: Float32Array,
): void {
  for (let r = 0; r < rows; r++) {
    const base = r * vocab;
    let max = -Infinity;
    for (let i = 0; i < vocab; i++) max = Math.max(max, logits[base + i]!);
    let sum = 0;
    let weighted = 0;
    for (let i = 0; i < vocab; i++) {
      const z = logits[base + i]! - max;
      const e = Math.exp(z);
      sum += e;
      weighted += e * z;
    }
    const lse = Math.log(sum);
    entropy[r] = lse - weighted / sum;
    const y = targets[r]!;
    logprobs[r] = y >= 0 ? logits[base + y]! - max - lse : 0;
  }
}

/** Overwrites logits (rows, vocab) with dloss/dlogits. */
export function logitsGradient(
  logits: Float32Array,
  targets: Int32Array,
  rows: number,
  vocab: number,
  coefficients: Float32Array,
  entropyCoefficients: Float32Array | undefined,
  normaliser: number,
): void {
  for (let r = 0; r < rows; r++) {
    const base = r * vocab;
    const c = coefficients[r]! / normaliser;
    const e = entropyCoefficients === undefined ? 0 : entropyCoefficients[r]! / normaliser;
    if (c === 0 && e === 0) {
      logits.fill(0, base, base + vocab);
      continue;
    }
    let max = -Infinity;
    for (let i = 0; i < vocab; i++) max = Math.max(max, logits[base + i]!);
    let sum = 0;
    for (let i = 0; i < vocab; i++) sum += Math.exp(logits[base + i]! - max);
    const lse = Math.log(sum);
    let entropy = 0;
    if (e !== 0) {
      for (let i = 0; i < vocab; i++) {
        const lp = logits[base + i]! - max - lse;
        entropy -= Math.exp(lp) * lp;
      }
    }
    for (let i = 0; i < vocab; i++) {
      const lp = logits[base + i]! - max - lse;
      const p = Math.exp(lp);
      logits[base + i] = c * p + (e === 0 ? 0 : e * p * (lp + entropy));
    }
    const y = targets[r]!;
    if (y >= 0) logits[base + y] = logits[base + y]! - c;
  }
}
