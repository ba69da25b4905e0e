// Checking what callers hand the model, before any work starts: token ids in range, batch shapes that
// match, lengths that fit. Each failure names the field and the bad value.
import { BudgetrlError } from "../core/errors.js";
import type { ModelConfig } from "./config.js";

/** A padded batch: row b holds tokens[b * seqLen ...]; targets are the next tokens (-1: none). */
export interface TokenBatch {
  readonly tokens: Int32Array;
  readonly targets: Int32Array;
  readonly batchSize: number;
  readonly seqLen: number;
  /** Optional valid length per row; tokens after it are not computed (their outputs are 0). */
  readonly lengths?: readonly number[];
}

export function checkTokens(
  config: ModelConfig,
  where: string,
  tokens: ArrayLike<number>,
  allowNoTarget: boolean,
): void {
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!;
    if (!Number.isInteger(t) || t >= config.vocabSize || (t < 0 && !(allowNoTarget && t === -1))) {
      throw new BudgetrlError("nn:bad-token", `${where}[${i}] = ${t} is not a token id in [0, ${config.vocabSize})`);
    }
  }
}

/** Checks a padded batch (and optional per-token array of the same shape); returns each row's length. */
export function checkBatch(
  config: ModelConfig,
  batch: TokenBatch,
  perToken: Readonly<Record<string, ArrayLike<number> | undefined>> = {},
): number[] {
  const { batchSize: B, seqLen: T } = batch;
  if (!(Number.isInteger(B) && B >= 1 && Number.isInteger(T) && T >= 1))
    throw new BudgetrlError("nn:bad-batch", `batchSize and seqLen must be positive integers, got ${B} x ${T}`);
  if (T > config.contextLength)
    throw new BudgetrlError(
      "nn:too-long",
      `seqLen ${T} exceeds contextLength ${config.contextLength}`,
      "truncate the sequences or build a model with a longer context",
    );
  if (batch.tokens.length !== B * T || batch.targets.length !== B * T)
    throw new BudgetrlError("nn:bad-batch", `tokens and targets must hold batchSize * seqLen = ${B * T} entries`);
  for (const [name, values] of Object.entries(perToken)) {
    if (values !== undefined && values.length !== B * T)
      throw new BudgetrlError(
        "nn:bad-batch",
        `${name} must hold batchSize * seqLen = ${B * T} entries, got ${values.length}`,
      );
  }
  checkTokens(config, "tokens", batch.tokens, false);
  checkTokens(config, "targets", batch.targets, true);
  if (batch.lengths !== undefined && batch.lengths.length !== B)
    throw new BudgetrlError("nn:bad-batch", `lengths must have batchSize = ${B} entries, got ${batch.lengths.length}`);
  return Array.from({ length: B }, (_, b) => {
    const n = batch.lengths?.[b] ?? T;
    if (!(Number.isInteger(n) && n >= 0 && n <= T))
      throw new BudgetrlError("nn:bad-batch", `lengths[${b}] = ${n} is not in [0, ${T}]`);
    return n;
  });
}
