// Batched autoregressive sampling for one shard: prefill every prompt's new tokens at once (packed rows, keys
// and values go to each sequence's KV cache, after what it already holds), then one decoding step per new
// token for the sequences still running. Each sequence draws from its own stream seeded by its own seed, and
// no kernel mixes rows, so a sequence's tokens do not depend on which other sequences share its batch or its
// thread.
import { createRng, type Rng } from "../core/rng.js";
import { attendCache } from "./attention.js";
import { forwardBlocks, forwardHead, type ModelViews } from "./forward.js";
import type { Kernels } from "./kernels/types.js";
import { computedChunks, prefill, type ChunkTargets } from "./prefill.js";
import { chooseToken, type PreparedRow, type SamplingParams } from "./sampler.js";
import type { Workspace } from "./workspace.js";

export interface GenerateOptions extends SamplingParams {
  readonly maxNewTokens: number;
  /** Sampling one of these ends the sequence (the stop token is kept in the output). */
  readonly stopTokens: readonly number[];
}

export type FinishReason = "stop" | "length" | "context";

export interface Generated {
  readonly tokens: number[];
  /** log p(token) under the model at temperature 1. */
  readonly logprobs: number[];
  /** log-prob under the distribution sampled from (temperature, top-p); 0 for greedy. */
  readonly samplingLogprobs: number[];
  finish: FinishReason;
}

/**
 * Samples the next token of a sequence that has `length` tokens so far; returns whether it goes on. A
 * sequence stops at a stop token, at maxNewTokens, or when it fills the context (prompt + answer <= T, so
 * the whole sequence can still be scored and trained on).
 */
function pick(out: Generated, logits: Float32Array, prepared: PreparedRow, options: GenerateOptions, rng: Rng, length: number, contextLength: number): boolean {
  const choice = chooseToken(logits, options, rng, prepared);
  out.tokens.push(choice.token);
  out.logprobs.push(choice.logprob);
  out.samplingLogprobs.push(choice.samplingLogprob);
  if (options.stopTokens.includes(choice.token)) out.finish = "stop";
  else if (out.tokens.length >= options.maxNewTokens) out.finish = "length";
  else if (length + 1 >= contextLength) out.finish = "context";
  else return true;
  return false;
}

/**
 * chunks[s]: the tokens of sequence s not cached yet, at positions targets.pasts[s].. of the sequence whose
 * block is at targets.slots[s] (src/nn/kv-cache.ts); sources[s]: the chunk whose prefill it shares
 * (prefill.ts sharedSources; s itself when it has its own). Returns what each sequence sampled.
 */
export function generateShard(kernels: Kernels, model: ModelViews, workspace: Workspace, chunks: readonly Int32Array[], targets: ChunkTargets,
  seeds: readonly number[], options: GenerateOptions, sources: readonly number[] = chunks.map((_, s) => s)): Generated[] {
  const { vocabSize: V, contextLength: T } = model.config;
  const results: Generated[] = chunks.map(() => ({ tokens: [], logprobs: [], samplingLogprobs: [], finish: "length" }));
  if (chunks.length === 0 || options.maxNewTokens <= 0) return results;
  const rngs = seeds.map((seed) => createRng(seed));
  const lengths = chunks.map((p) => p.length);
  const { own, packing } = computedChunks(lengths, sources);
  own.forEach((s, k) => {
    const p = chunks[s]!;
    workspace.tokens.set(p, packing.starts[k]!);
    for (let i = 0; i < p.length; i++) workspace.positions[packing.starts[k]! + i] = targets.pasts[s]! + i;
  });
  prefill(kernels, model, workspace, lengths, targets, sources);
  /** Logits of the first `rows` rows of workspace.xOut, and what sampling needs from them. */
  const head = (rows: number): ((r: number) => [Float32Array, PreparedRow]) => {
    const logits = forwardHead(kernels, model, workspace, workspace.xOut, rows);
    const { sampleWeights: weights, sampleStats: stats } = workspace;
    kernels.samplingWeights(weights, stats, logits, rows, V, options.temperature > 0 ? options.temperature : 1);
    return (r) => [logits.subarray(r * V, (r + 1) * V), { weights: weights.subarray(r * V, (r + 1) * V), modelLse: stats[2 * r]!, sum: stats[2 * r + 1]! }];
  };
  const filled = chunks.map((p, s) => targets.pasts[s]! + p.length);
  const first = head(chunks.length);
  let active = chunks.map((_, s) => s).filter((s) => pick(results[s]!, ...first(s), options, rngs[s]!, filled[s]!, T));
  while (active.length > 0) {
    active.forEach((s, r) => {
      const out = results[s]!;
      workspace.tokens[r] = out.tokens[out.tokens.length - 1]!;
      workspace.positions[r] = filled[s]! + out.tokens.length - 1;
    });
    forwardBlocks(kernels, model, workspace, active.length, attendCache(kernels, model, workspace, targets.cache, active.map((s) => targets.slots[s]!)), false);
    const step = head(active.length);
    active = active.filter((s, r) => pick(results[s]!, ...step(r), options, rngs[s]!, filled[s]! + results[s]!.tokens.length, T));
  }
  return results;
}
