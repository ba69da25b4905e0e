// The in-process transformer as a TrainerBackend: sequences are packed into padded batches (row lengths keep
// padding out of the compute), response-token log-probs are cut out of the per-position outputs, and the
// caller's coefficients are scattered back into a per-position array for the model's backward pass.
import { createHash } from "node:crypto";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { saveCheckpoint } from "../nn/checkpoint.js";
import { encodeText, END } from "../nn/tokenizer.js";
import type { TinyModel, TokenBatch } from "../nn/model.js";
import { createTinyPolicy, type TinyPolicyOptions } from "../policies/tiny/policy.js";
import type { AccumulateStats, ReferenceScorer, StepStats, TrainablePolicy, TrainerBackend, TrainSequence } from "./backend.js";

/** A padded batch whose targets are the next tokens; `positions[i]` = first position of sequence i's response. */
export function packSequences(batch: readonly TrainSequence[]): { batch: TokenBatch; starts: number[] } {
  const seqLen = Math.max(1, ...batch.map((sequence) => sequence.tokens.length - 1));
  const tokens = new Int32Array(batch.length * seqLen);
  const targets = new Int32Array(batch.length * seqLen).fill(-1);
  const lengths: number[] = [];
  batch.forEach((sequence, row) => {
    const length = sequence.tokens.length - 1;
    for (let t = 0; t < length; t++) {
      tokens[row * seqLen + t] = sequence.tokens[t] as number;
      // Position t predicts token t + 1; only response tokens are targets.
      if (t + 1 >= sequence.responseStart) targets[row * seqLen + t] = sequence.tokens[t + 1] as number;
    }
    lengths.push(Math.max(1, length));
  });
  return { batch: { tokens, targets, batchSize: batch.length, seqLen, lengths }, starts: batch.map((sequence) => sequence.responseStart - 1) };
}

function responseSlices(values: Float32Array, batch: readonly TrainSequence[], seqLen: number): Float32Array[] {
  return batch.map((sequence, row) => values.slice(row * seqLen + sequence.responseStart - 1, row * seqLen + sequence.tokens.length - 1));
}

/** Response-token log-probs without gradients (the model's scoring path keeps no activations). */
async function scoreWith(model: TinyModel, batch: readonly TrainSequence[]): Promise<Float32Array[]> {
  if (batch.length === 0) return [];
  const scores = await model.logprobs(batch.map((sequence) => sequence.tokens));
  // scores[i][t] = log p(tokens[t + 1] | tokens[<= t]): the response starts at index responseStart - 1.
  return scores.map((values, i) => values.slice((batch[i] as TrainSequence).responseStart - 1));
}

export interface TinyBackendOptions {
  readonly model: TinyModel;
  readonly policy?: Omit<TinyPolicyOptions, "model">;
  /** Sequences per forward/backward chunk (memory bound); gradients accumulate across chunks. */
  readonly chunk?: number;
}

export function tinyBackend(options: TinyBackendOptions): TrainerBackend {
  const { model } = options;
  const chunk = options.chunk ?? 32;
  const tiny = createTinyPolicy({ model, ...options.policy });
  const policy: TrainablePolicy = { name: tiny.name, act: tiny.act, promptTokens: tiny.promptTokens, responseTokens: (reply) => [...encodeText(reply.content), END] };
  const chunks = <T>(items: readonly T[]): T[][] => Array.from({ length: Math.ceil(items.length / chunk) }, (_, i) => items.slice(i * chunk, (i + 1) * chunk));
  return {
    name: "tiny",
    policy: () => policy,
    async logprobs(batch) {
      const out: Float32Array[] = [];
      for (const part of chunks(batch)) out.push(...(await scoreWith(model, part)));
      return out;
    },
    async accumulate(batch, coefficientsFor, normaliser): Promise<AccumulateStats> {
      let entropySum = 0;
      let tokens = 0;
      let first = 0;
      for (const part of chunks(batch)) {
        const packed = packSequences(part);
        const result = await model.forward(packed.batch);
        const coefficients = coefficientsFor(responseSlices(result.logprobs, part, packed.batch.seqLen), first);
        const perPosition = new Float32Array(packed.batch.tokens.length);
        part.forEach((sequence, row) => {
          const values = coefficients[row] as Float32Array;
          const base = row * packed.batch.seqLen + sequence.responseStart - 1;
          for (let t = 0; t < values.length; t++) {
            perPosition[base + t] = values[t] as number;
            entropySum += result.entropy[base + t] as number;
            tokens++;
          }
        });
        await model.backward(perPosition, { normaliser });
        first += part.length;
      }
      return { entropy: tokens === 0 ? 0 : entropySum / tokens, tokens };
    },
    async step(learningRate): Promise<StepStats> {
      const stats = model.step({ learningRate });
      return { gradNorm: stats.gradNorm, learningRate };
    },
    async reference(): Promise<ReferenceScorer> {
      const frozen = await model.clone();
      return { logprobs: async (batch) => scoreWith(frozen, batch), dispose: () => frozen.dispose() };
    },
    save: async (dir) => {
      await saveCheckpoint(model, dir);
      // The prompt window depends on maxNewTokens: `tiny:DIR` policies read it back.
      await writeFile(join(dir, "policy.json"), `${JSON.stringify({ maxNewTokens: options.policy?.maxNewTokens ?? 48 })}\n`);
    },
    weightsDigest: () => createHash("sha256").update(new Uint8Array(model.parameters().buffer, model.parameters().byteOffset, model.parameters().byteLength)).digest("hex"),
    dispose: () => model.dispose(),
  };
}
