// The in-process policy model: a small Llama-style transformer with its own forward, backward, AdamW and
// sampling. This file assembles a model from its parts: its tensors in the shared heap (memory.ts), the
// whole-sequence passes (passes.ts), sampling with KV-cache sessions (sampling.ts), and the optimiser step;
// the maths is in forward.ts, backward.ts, loss.ts, generate.ts.
//
// Training: `forward(batch)` returns per-token log-probs and entropy; `backward(c)` accumulates the gradient
// of loss = -sum_t c_t log p(y_t) / normaliser (see loss.ts), so PPO/GRPO/KL terms are the caller's
// per-token coefficients; `step()` clips, applies AdamW and zeroes the gradients. Calling forward+backward
// several times before `step()` accumulates gradients.
import { availableParallelism } from "node:os";
import { BudgetrlError, ConfigError } from "../core/errors.js";
import { resolveConfig, type ModelConfig } from "./config.js";
import type { Generated } from "./generate.js";
import { sharedHeap } from "./heap.js";
import type { KvSession } from "./kv-cache.js";
import { allocateModelMemory } from "./memory.js";
import { adamwUpdate, resolveAdamW, type AdamWConfig, type OptimizerState, type UpdateStats } from "./optimizer.js";
import type { ParameterSpec } from "./params.js";
import { createPasses, type BackwardOptions, type ForwardResult, type TokenSpan } from "./passes.js";
import { poolFor } from "./pool.js";
import type { TokenCounts } from "./runtime.js";
import { createSampler, type SampleOptions } from "./sampling.js";
import type { TokenBatch } from "./batch.js";

export type Backend = "wasm" | "reference";
export type { TokenBatch } from "./batch.js";
export type { BackwardOptions, ForwardResult, TokenSpan } from "./passes.js";
export type { SampleOptions } from "./sampling.js";
export type { TokenCounts } from "./runtime.js";
export type { KvSession } from "./kv-cache.js";

export interface ModelOptions {
  readonly config?: Partial<ModelConfig>;
  /** Seed of the weight initialisation. */
  readonly seed?: number;
  /** "wasm" (default): WebAssembly SIMD kernels; "reference": the plain TypeScript kernels. */
  readonly backend?: Backend;
  /** Threads to run shards on (default: min(shards, cores)). Results do not depend on it. */
  readonly threads?: number;
  /** Fixed number of shards a batch is split into (default 2). Results do depend on it (summation order). */
  readonly shards?: number;
  readonly optimizer?: Partial<AdamWConfig>;
}

export interface TinyModel {
  readonly config: ModelConfig;
  readonly backend: Backend;
  readonly threads: number;
  readonly shards: number;
  readonly specs: readonly ParameterSpec[];
  readonly optimizerConfig: AdamWConfig;
  /** The flat weights (Hugging Face order); call `weightsChanged()` after writing them. */
  parameters(): Float32Array;
  gradients(): Float32Array;
  optimizerState(): OptimizerState;
  weightsChanged(): void;
  forward(batch: TokenBatch, weights?: Float32Array): Promise<ForwardResult>;
  backward(coefficients: Float32Array, options?: BackwardOptions): Promise<void>;
  /** Cross-entropy: forward, then backward with c = weights and normaliser = sum(weights). */
  lossAndGradient(batch: TokenBatch, weights?: Float32Array): Promise<ForwardResult>;
  step(options?: { readonly learningRate?: number }): UpdateStats;
  zeroGradients(): void;
  /**
   * log p(seq[t] | seq[<t]) for t = 1..n-1 of each sequence (no gradient). With `wanted` (per sequence, token
   * ranges [start, end), start >= 1), only those tokens' log-probs (the others are 0), and the last block and
   * the head run on their rows alone.
   */
  logprobs(
    sequences: readonly (readonly number[])[],
    wanted?: readonly (readonly TokenSpan[])[],
  ): Promise<Float32Array[]>;
  /** Samples a continuation of each prompt (in its session's KV cache when `options.sessions` gives one). */
  sample(prompts: readonly (readonly number[])[], options: SampleOptions): Promise<Generated[]>;
  /** A KV cache that keeps a sequence between sample() calls: a prompt that extends it only prefills its new tokens. */
  openSession(): KvSession;
  /** Tokens run so far, by kind (a copy). */
  tokenCounts(): TokenCounts;
  /** A copy of the weights (a frozen reference for KL, or a fork); fresh optimiser state. */
  clone(): Promise<TinyModel>;
  dispose(): void;
}

function resolveThreads(options: ModelOptions, backend: Backend): { shards: number; threads: number } {
  const shards = options.shards ?? 2;
  if (!(Number.isInteger(shards) && shards >= 1))
    throw new ConfigError("model.shards", `must be a positive integer, got ${shards}`);
  const threads = Math.min(shards, options.threads ?? (backend === "wasm" ? availableParallelism() : 1));
  if (!(Number.isInteger(threads) && threads >= 1))
    throw new ConfigError("model.threads", `must be a positive integer, got ${options.threads}`);
  return { shards, threads };
}

export async function createModel(options: ModelOptions = {}): Promise<TinyModel> {
  const config = resolveConfig(options.config);
  const backend = options.backend ?? "wasm";
  const { shards, threads } = resolveThreads(options, backend);
  const optimizerConfig = resolveAdamW(options.optimizer);
  const heap = sharedHeap();
  const pool = poolFor(heap, backend, threads);
  const memory = allocateModelMemory(heap, config, shards, options.seed ?? 0);
  const counts: TokenCounts = { prefill: 0, decode: 0, train: 0, score: 0 };
  const passes = createPasses({ config, heap, pool, memory, shards, counts });
  const sampler = createSampler({ config, heap, pool, memory, shards, counts });
  let disposed = false;
  const alive = (): void => {
    if (disposed) throw new BudgetrlError("nn:disposed", "this model was disposed");
  };
  // Calls that use workspaces run one at a time (concurrent callers queue), so that no call frees or
  // overwrites a workspace that another call's worker job still reads.
  let lock: Promise<unknown> = Promise.resolve();
  const exclusive = <T>(task: () => Promise<T>): Promise<T> => {
    const run = lock.then(() => {
      alive();
      return task();
    });
    lock = run.catch(() => undefined);
    return run;
  };

  const model: TinyModel = {
    config,
    backend,
    threads,
    shards,
    specs: memory.specs,
    optimizerConfig,
    parameters: () => memory.flat,
    gradients: () => memory.gradFlat,
    optimizerState: () => memory.optimizer,
    weightsChanged: memory.weightsChanged,
    forward: (batch, weights) => exclusive(() => passes.forward(batch, weights)),
    backward: (coefficients, backwardOptions) => exclusive(() => passes.backward(coefficients, backwardOptions)),
    async lossAndGradient(batch, weights) {
      const result = await model.forward(batch, weights);
      const w = weights ?? Float32Array.from(batch.targets, (t) => (t >= 0 ? 1 : 0));
      const total = w.reduce((a, b) => a + b, 0);
      await model.backward(w, { normaliser: total > 0 ? total : 1 });
      return result;
    },
    step(stepOptions = {}) {
      alive();
      const stats = adamwUpdate(
        memory.specs,
        memory.flat,
        memory.gradFlat,
        memory.optimizer,
        optimizerConfig,
        stepOptions.learningRate ?? optimizerConfig.learningRate,
      );
      memory.gradFlat.fill(0);
      memory.weightsChanged();
      return stats;
    },
    zeroGradients: () => void memory.gradFlat.fill(0),
    logprobs: (sequences, wanted) => exclusive(() => passes.logprobs(sequences, wanted)),
    sample: (prompts, sampleOptions) => exclusive(() => sampler.sample(prompts, sampleOptions)),
    openSession: () => {
      alive();
      return sampler.openSession();
    },
    tokenCounts: () => ({ ...counts }),
    async clone() {
      alive();
      const copy = await createModel({ ...options, config, backend, threads, shards, optimizer: optimizerConfig });
      copy.parameters().set(memory.flat);
      copy.weightsChanged();
      return copy;
    },
    dispose() {
      if (disposed) return;
      disposed = true;
      memory.free();
      passes.free();
      sampler.free();
    },
  };
  return model;
}
