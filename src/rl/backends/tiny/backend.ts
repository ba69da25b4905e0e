// The in-process transformer as a TrainerBackend: sequences are packed into padded batches (row lengths keep
// padding out of the compute) in chunks of at most `chunkTokens` tokens, response-token log-probs are cut out
// of the per-position outputs span by span, and the caller's coefficients are scattered back into a
// per-position array for the model's backward pass.
import { createHash } from "node:crypto";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { Json } from "../../../core/json.js";
import { saveCheckpoint } from "../../../nn/checkpoint.js";
import { encodeText, END } from "../../../nn/tokenizer.js";
import type { TinyModel, TokenBatch } from "../../../nn/model.js";
import { DEFAULT_MAX_NEW_TOKENS, HISTORY } from "../../../policies/tiny/context.js";
import { createTinyPolicy, type TinyPolicyOptions } from "../../../policies/tiny/policy.js";
import type {
  AccumulateStats,
  CoefficientFunction,
  ReferenceScorer,
  StepStats,
  TrainablePolicy,
  TrainerBackend,
  TrainSequence,
} from "../../backend.js";
import { tokenChunks } from "../token-chunks.js";

/** A padded batch whose targets are the next tokens where they are response tokens. */
export function packSequences(batch: readonly TrainSequence[]): TokenBatch {
  const seqLen = Math.max(1, ...batch.map((sequence) => sequence.tokens.length - 1));
  const tokens = new Int32Array(batch.length * seqLen);
  const targets = new Int32Array(batch.length * seqLen).fill(-1);
  const lengths: number[] = [];
  batch.forEach((sequence, row) => {
    const length = sequence.tokens.length - 1;
    for (let t = 0; t < length; t++) tokens[row * seqLen + t] = sequence.tokens[t]!;
    // Position t predicts token t + 1: response token i is the target of position i - 1.
    for (const span of sequence.responses)
      for (let i = span.start; i < span.end; i++) targets[row * seqLen + i - 1] = sequence.tokens[i]!;
    lengths.push(Math.max(1, length));
  });
  return { tokens, targets, batchSize: batch.length, seqLen, lengths };
}

/** The per-position values predicting each response token of `sequence`, in order (row starts at `offset`). */
function responseValues(values: Float32Array, offset: number, sequence: TrainSequence): Float32Array {
  const parts = sequence.responses.map((span) => values.subarray(offset + span.start - 1, offset + span.end - 1));
  const out = new Float32Array(parts.reduce((sum, part) => sum + part.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

/**
 * Response-token log-probs without gradients, chunk by chunk (the model's scoring path keeps no
 * activations, and runs its last block and head on the response tokens' rows only).
 */
async function scoreWith(
  model: TinyModel,
  batch: readonly TrainSequence[],
  chunkTokens: number,
): Promise<Float32Array[]> {
  const out: Float32Array[] = [];
  for (const part of tokenChunks(batch, chunkTokens)) {
    const scores = await model.logprobs(
      part.map((sequence) => sequence.tokens),
      part.map((sequence) => sequence.responses),
    );
    // scores[i][t] = log p(tokens[t + 1] | tokens[<= t]).
    out.push(...scores.map((values, i) => responseValues(values, 0, part[i]!)));
  }
  return out;
}

/**
 * Forward, the caller's coefficients, backward, chunk by chunk: the coefficients are scattered into a per-position
 * array (position i - 1 predicts response token i) and the entropy is averaged over the response tokens.
 */
async function accumulateOn(
  model: TinyModel,
  chunkTokens: number,
  batch: readonly TrainSequence[],
  coefficientsFor: CoefficientFunction,
  normaliser: number,
): Promise<AccumulateStats> {
  let entropySum = 0;
  let tokens = 0;
  let first = 0;
  for (const part of tokenChunks(batch, chunkTokens)) {
    const packed = packSequences(part);
    const T = packed.seqLen;
    const result = await model.forward(packed);
    const coefficients = coefficientsFor(
      part.map((sequence, row) => responseValues(result.logprobs, row * T, sequence)),
      first,
    );
    const perPosition = new Float32Array(packed.tokens.length);
    part.forEach((sequence, row) => {
      const values = coefficients[row]!;
      let at = 0;
      for (const span of sequence.responses) {
        for (let i = span.start; i < span.end; i++, at++) {
          perPosition[row * T + i - 1] = values[at]!;
          entropySum += result.entropy[row * T + i - 1]!;
          tokens++;
        }
      }
    });
    await model.backward(perPosition, { normaliser });
    first += part.length;
  }
  return { entropy: tokens === 0 ? 0 : entropySum / tokens, tokens };
}

export interface TinyBackendOptions {
  readonly model: TinyModel;
  readonly policy?: Omit<TinyPolicyOptions, "model">;
  /** Recorded in a checkpoint's policy.json beside the answer length: the renderer the model was trained with
   * when it is not the tiny policy's bytes (sft --renderer hf:DIR), its template options and tool-call format. */
  readonly rendering?: Readonly<Record<string, Json>>;
  /** Most tokens per forward/backward chunk (memory bound); gradients accumulate across chunks. Default 8192. */
  readonly chunkTokens?: number;
}

export function tinyBackend(options: TinyBackendOptions): TrainerBackend {
  const { model } = options;
  const chunkTokens = options.chunkTokens ?? 8192;
  const tiny = createTinyPolicy({ model, ...options.policy });
  const policy: TrainablePolicy = {
    name: tiny.name,
    act: tiny.act,
    endEpisode: tiny.endEpisode,
    episodeSequences: tiny.episodeSequences,
    responseTokens: (reply) => [...encodeText(reply.content), END],
  };
  return {
    name: "tiny",
    policy: () => policy,
    logprobs: (batch) => scoreWith(model, batch, chunkTokens),
    accumulate: (batch, coefficientsFor, normaliser) =>
      accumulateOn(model, chunkTokens, batch, coefficientsFor, normaliser),
    async step(learningRate): Promise<StepStats> {
      const stats = model.step({ learningRate });
      return { gradNorm: stats.gradNorm, learningRate };
    },
    async reference(): Promise<ReferenceScorer> {
      const frozen = await model.clone();
      return { logprobs: (batch) => scoreWith(frozen, batch, chunkTokens), dispose: () => frozen.dispose() };
    },
    save: async (dir) => {
      await saveCheckpoint(model, dir);
      // The prompts depend on maxNewTokens: `tiny:DIR` policies read it back. The history is recorded so that a
      // checkpoint of the retired window history (none recorded) is told apart and refused.
      const settings = {
        maxNewTokens: options.policy?.maxNewTokens ?? DEFAULT_MAX_NEW_TOKENS,
        history: HISTORY,
        ...options.rendering,
      };
      await writeFile(join(dir, "policy.json"), `${JSON.stringify(settings)}\n`);
    },
    weightsDigest: () =>
      createHash("sha256")
        .update(new Uint8Array(model.parameters().buffer, model.parameters().byteOffset, model.parameters().byteLength))
        .digest("hex"),
    processedTokens: () => {
      const counts = model.tokenCounts();
      return counts.prefill + counts.decode + counts.train + counts.score;
    },
    dispose: () => model.dispose(),
  };
}
