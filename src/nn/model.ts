// The in-process policy model: a small Llama-style transformer with its own forward, backward, AdamW and
// sampling. This file owns the state (weights, gradients, optimiser moments, workspaces in the shared heap)
// and turns batches into shard jobs; the maths is in forward.ts, backward.ts, loss.ts, generate.ts.
//
// Training: `forward(batch)` returns per-token log-probs and entropy; `backward(c)` accumulates the gradient
// of loss = -sum_t c_t log p(y_t) / normaliser (see loss.ts), so PPO/GRPO/KL terms are the caller's
// per-token coefficients; `step()` clips, applies AdamW and zeroes the gradients. Calling forward+backward
// several times before `step()` accumulates gradients.
import { availableParallelism } from "node:os";
import { BudgetrlError, ConfigError } from "../core/errors.js";
import { packLengths, type Packing } from "./attention.js";
import { resolveConfig, headDim, type ModelConfig } from "./config.js";
import type { ModelViews } from "./forward.js";
import type { Generated, GenerateOptions } from "./generate.js";
import { sharedHeap, type Heap } from "./heap.js";
import type { Job } from "./jobs.js";
import { referenceKernels } from "./kernels/reference.js";
import { KERNEL_SCRATCH_FLOATS, kernelsModule, wasmKernels } from "./kernels/wasm.js";
import { adamwUpdate, resolveAdamW, type AdamWConfig, type OptimizerState, type UpdateStats } from "./optimizer.js";
import { bindTransposed, bindWeights, initializeWeights, parameterSpecs, ropeTables, transposedSize, transposeWeights, type ParameterSpec, type Weights } from "./params.js";
import { createPool, type Pool } from "./pool.js";
import { END } from "./tokenizer.js";
import { checkBatch, checkTokens, type TokenBatch } from "./batch.js";
import { ensureCache, ensureWorkspace, freeCache, shardRanges, type CacheSlot, type WorkspaceSlot } from "./shards.js";
import { freeWorkspace } from "./workspace.js";

export type Backend = "wasm" | "reference";
export type { TokenBatch } from "./batch.js";

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

export interface ForwardResult {
  /** (batchSize * seqLen) log p(target); 0 where there is no target or past a row's length. */
  readonly logprobs: Float32Array;
  readonly entropy: Float32Array;
  /** -sum(w log p) / sum(w) with the given weights (default: 1 where a target exists). */
  readonly loss: number;
}

export interface BackwardOptions {
  /** Divides the loss (default 1). */
  readonly normaliser?: number;
  /** e_t: adds -sum_t e_t H_t / normaliser to the loss (entropy bonus). */
  readonly entropyCoefficients?: Float32Array;
}

export interface SampleOptions {
  readonly maxNewTokens: number;
  /** Default 1; 0 is greedy. */
  readonly temperature?: number;
  /** Default 1 (no truncation). */
  readonly topP?: number;
  /** Default [END]. */
  readonly stopTokens?: readonly number[];
  /** One seed per prompt: a sequence's tokens depend only on its prompt, its seed and the weights. */
  readonly seeds: readonly number[];
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
  /** log p(seq[t] | seq[<t]) for t = 1..n-1 of each sequence (no gradient). */
  logprobs(sequences: readonly (readonly number[])[]): Promise<Float32Array[]>;
  sample(prompts: readonly (readonly number[])[], options: SampleOptions): Promise<Generated[]>;
  /** A copy of the weights (a frozen reference for KL, or a fork); fresh optimiser state. */
  clone(): Promise<TinyModel>;
  dispose(): void;
}

const pools = new Map<string, Pool>();

/** The process-wide pool for (backend, threads): its calling-thread kernels and its workers. */
function poolFor(heap: Heap, backend: Backend, threads: number): Pool {
  const key = `${backend}:${threads}`;
  let pool = pools.get(key);
  if (pool === undefined) {
    const module = backend === "wasm" ? kernelsModule() : null;
    const scratches = Array.from({ length: threads }, () => heap.allocFloats(module === null ? 1 : KERNEL_SCRATCH_FLOATS));
    const kernels = module === null ? referenceKernels : wasmKernels(heap.memory, module, scratches[0]!);
    pool = createPool(kernels, heap.memory, module, threads, scratches.slice(1));
    pools.set(key, pool);
  }
  return pool;
}

/** Where the last forward left each sequence: what its backward needs. */
interface ForwardLayout {
  readonly packings: Packing[];
  readonly ranges: [number, number][];
  readonly seqLen: number;
}

export async function createModel(options: ModelOptions = {}): Promise<TinyModel> {
  const config = resolveConfig(options.config);
  const backend = options.backend ?? "wasm";
  const shards = options.shards ?? 2;
  if (!(Number.isInteger(shards) && shards >= 1)) throw new ConfigError("model.shards", `must be a positive integer, got ${shards}`);
  const threads = Math.min(shards, options.threads ?? (backend === "wasm" ? availableParallelism() : 1));
  if (!(Number.isInteger(threads) && threads >= 1)) throw new ConfigError("model.threads", `must be a positive integer, got ${options.threads}`);
  const optimizerConfig = resolveAdamW(options.optimizer);
  const heap = sharedHeap();
  const pool = poolFor(heap, backend, threads);
  const specs = parameterSpecs(config);
  const P = specs.reduce((sum, s) => sum + s.length, 0);
  const flat = heap.allocFloats(P);
  const gradFlat = heap.allocFloats(P);
  const shardGradFlats = Array.from({ length: shards - 1 }, () => heap.allocFloats(P));
  const optimizer: OptimizerState = { step: 0, m: heap.allocFloats(P), v: heap.allocFloats(P) };
  const transposedFlat = heap.allocFloats(transposedSize(config));
  const ropeSize = (config.contextLength * headDim(config)) / 2;
  const cos = heap.allocFloats(ropeSize);
  const sin = heap.allocFloats(ropeSize);
  ropeTables(config, cos, sin);
  initializeWeights(config, flat, options.seed ?? 0);
  const views: ModelViews = { config, weights: bindWeights(config, flat), transposed: bindTransposed(config, transposedFlat), cos, sin };
  const grads = bindWeights(config, gradFlat);
  const shardGrads: Weights[] = [grads, ...shardGradFlats.map((f) => bindWeights(config, f))];
  const trainSlots: WorkspaceSlot[] = Array.from({ length: shards }, () => ({ workspace: undefined }));
  const scoreSlots: WorkspaceSlot[] = Array.from({ length: shards }, () => ({ workspace: undefined }));
  const sampleSlots: (WorkspaceSlot & CacheSlot)[] = Array.from({ length: shards }, () => ({ workspace: undefined, cache: undefined }));
  let pending: ForwardLayout | undefined;
  let disposed = false;
  const weightsChanged = (): void => transposeWeights(config, views.weights, views.transposed);
  weightsChanged();
  const alive = (): void => {
    if (disposed) throw new BudgetrlError("nn:disposed", "this model was disposed");
  };
  // Calls that use workspaces run one at a time (concurrent callers queue), so that no call frees or
  // overwrites a workspace that another call's worker job still reads.
  let lock: Promise<unknown> = Promise.resolve();
  const exclusive = <T>(task: () => Promise<T>): Promise<T> => {
    const run = lock.then(task);
    lock = run.catch(() => undefined);
    return run;
  };

  /** Writes sequences into shard workspaces and runs the forward jobs. */
  const runForward = async (slots: WorkspaceSlot[], rows: readonly { tokens: ArrayLike<number>; targets: ArrayLike<number>; length: number }[], seqLen: number): Promise<ForwardLayout> => {
    const ranges = shardRanges(rows.length, shards);
    const packings: Packing[] = [];
    const jobs: Job[] = ranges.map(([first, end], s) => {
      const lengths = rows.slice(first, end).map((r) => r.length);
      const workspace = ensureWorkspace(heap, config, slots[s]!, lengths);
      const packing = packLengths(lengths);
      packings.push(packing);
      for (let i = first; i < end; i++) {
        const row = rows[i]!;
        const start = packing.starts[i - first]!;
        for (let t = 0; t < row.length; t++) {
          workspace.tokens[start + t] = row.tokens[t]!;
          workspace.targets[start + t] = row.targets[t]!;
          workspace.positions[start + t] = t;
        }
      }
      return { kind: "forward", model: views, workspace, packing, rows: lengths.reduce((a, b) => a + b, 0) };
    });
    await pool.runAll(jobs);
    return { packings, ranges, seqLen };
  };

  const model: TinyModel = {
    config, backend, threads, shards, specs, optimizerConfig,
    parameters: () => flat,
    gradients: () => gradFlat,
    optimizerState: () => optimizer,
    weightsChanged,

    forward: (batch, weights) => exclusive(async () => {
      alive();
      const lengths = checkBatch(config, batch, { weights });
      const { batchSize: B, seqLen: T } = batch;
      const rows = lengths.map((n, b) => ({ tokens: batch.tokens.subarray(b * T, b * T + n), targets: batch.targets.subarray(b * T, b * T + n), length: n }));
      pending = undefined;
      pending = await runForward(trainSlots, rows, T);
      const logprobs = new Float32Array(B * T);
      const entropy = new Float32Array(B * T);
      let num = 0;
      let den = 0;
      pending.ranges.forEach(([first, end], s) => {
        const ws = trainSlots[s]!.workspace!;
        for (let b = first; b < end; b++) {
          const start = pending!.packings[s]!.starts[b - first]!;
          for (let t = 0; t < lengths[b]!; t++) {
            const lp = ws.logprobs[start + t]!;
            logprobs[b * T + t] = lp;
            entropy[b * T + t] = ws.entropy[start + t]!;
            const w = weights === undefined ? (batch.targets[b * T + t]! >= 0 ? 1 : 0) : weights[b * T + t]!;
            num -= w * lp;
            den += w;
          }
        }
      });
      return { logprobs, entropy, loss: den === 0 ? 0 : num / den };
    }),

    backward: (coefficients, backwardOptions = {}) => exclusive(async () => {
      alive();
      const last = pending;
      if (last === undefined) throw new BudgetrlError("nn:no-forward", "backward() needs a forward() first (and each forward serves one backward)");
      pending = undefined;
      const normaliser = backwardOptions.normaliser ?? 1;
      if (!(normaliser > 0)) throw new BudgetrlError("nn:bad-normaliser", `normaliser must be > 0, got ${normaliser}`);
      const entropyCoefficients = backwardOptions.entropyCoefficients;
      const T = last.seqLen;
      const size = last.ranges[last.ranges.length - 1]![1] * T;
      for (const [name, values] of [["coefficients", coefficients], ["entropyCoefficients", entropyCoefficients]] as const) {
        if (values !== undefined && values.length !== size) throw new BudgetrlError("nn:bad-batch", `${name} must hold batchSize * seqLen = ${size} entries (the last forward's shape), got ${values.length}`);
      }
      const jobs: Job[] = last.ranges.map(([first, end], s) => {
        const ws = trainSlots[s]!.workspace!;
        const packing = last.packings[s]!;
        for (let b = first; b < end; b++) {
          const start = packing.starts[b - first]!;
          for (let t = 0; t < packing.lengths[b - first]!; t++) {
            ws.coefficients[start + t] = coefficients[b * T + t]!;
            ws.entropyCoefficients[start + t] = entropyCoefficients?.[b * T + t] ?? 0;
          }
        }
        const rows = packing.lengths.reduce((a, n) => a + n, 0);
        return { kind: "backward", model: views, workspace: ws, packing, rows, grads: shardGrads[s]!, normaliser, withEntropy: entropyCoefficients !== undefined };
      });
      await pool.runAll(jobs);
      for (const extra of shardGradFlats) {
        for (let i = 0; i < P; i++) gradFlat[i] = gradFlat[i]! + extra[i]!;
        extra.fill(0);
      }
    }),

    async lossAndGradient(batch, weights) {
      const result = await model.forward(batch, weights);
      const w = weights ?? Float32Array.from(batch.targets, (t) => (t >= 0 ? 1 : 0));
      const total = w.reduce((a, b) => a + b, 0);
      await model.backward(w, { normaliser: total > 0 ? total : 1 });
      return result;
    },

    step(stepOptions = {}) {
      alive();
      const stats = adamwUpdate(specs, flat, gradFlat, optimizer, optimizerConfig, stepOptions.learningRate ?? optimizerConfig.learningRate);
      gradFlat.fill(0);
      weightsChanged();
      return stats;
    },

    zeroGradients: () => gradFlat.fill(0) && undefined,

    logprobs: (sequences) => exclusive(async () => {
      alive();
      sequences.forEach((seq, i) => {
        if (seq.length > config.contextLength) throw new BudgetrlError("nn:too-long", `sequence ${i} has ${seq.length} tokens, more than contextLength ${config.contextLength}`);
        checkTokens(config, `sequences[${i}]`, seq, false);
      });
      const rows = sequences.map((seq) => ({ tokens: seq, targets: [...seq.slice(1), -1], length: seq.length }));
      const done = await runForward(scoreSlots, rows, config.contextLength);
      return sequences.map((seq, i) => {
        const s = done.ranges.findIndex(([first, end]) => i >= first && i < end);
        const start = done.packings[s]!.starts[i - done.ranges[s]![0]]!;
        return Float32Array.from(scoreSlots[s]!.workspace!.logprobs.subarray(start, start + Math.max(0, seq.length - 1)));
      });
    }),

    sample: (prompts, sampleOptions) => exclusive(async () => {
      alive();
      const options: GenerateOptions = {
        maxNewTokens: sampleOptions.maxNewTokens, temperature: sampleOptions.temperature ?? 1, topP: sampleOptions.topP ?? 1, stopTokens: sampleOptions.stopTokens ?? [END],
      };
      if (!(Number.isInteger(options.maxNewTokens) && options.maxNewTokens >= 0)) throw new BudgetrlError("nn:bad-sample", `maxNewTokens must be a non-negative integer, got ${options.maxNewTokens}`);
      if (!(options.temperature >= 0)) throw new BudgetrlError("nn:bad-sample", `temperature must be >= 0, got ${options.temperature}`);
      if (!(options.topP > 0 && options.topP <= 1)) throw new BudgetrlError("nn:bad-sample", `topP must be in (0, 1], got ${options.topP}`);
      if (sampleOptions.seeds.length !== prompts.length) throw new BudgetrlError("nn:bad-sample", `need one seed per prompt: ${prompts.length} prompts, ${sampleOptions.seeds.length} seeds`);
      prompts.forEach((p, i) => {
        if (p.length === 0 || p.length >= config.contextLength) {
          throw new BudgetrlError("nn:too-long", `prompt ${i} has ${p.length} tokens; it needs 1..${config.contextLength - 1}`, "keep the newest tokens that fit (the tiny policy does)");
        }
        checkTokens(config, `prompts[${i}]`, p, false);
      });
      const ranges = shardRanges(prompts.length, shards);
      const jobs: Job[] = ranges.map(([first, end], s) => {
        const shardPrompts = prompts.slice(first, end).map((p) => Int32Array.from(p));
        const slot = sampleSlots[s]!;
        const workspace = ensureWorkspace(heap, config, slot, shardPrompts.map((p) => p.length));
        const cache = ensureCache(heap, config, slot, Math.max(1, shardPrompts.length));
        return { kind: "generate", model: views, workspace, cache, prompts: shardPrompts, seeds: sampleOptions.seeds.slice(first, end), options };
      });
      const results = await pool.runAll(jobs);
      return results.flatMap((r) => (r.kind === "generated" ? r.results : []));
    }),

    async clone() {
      alive();
      const copy = await createModel({ ...options, config, backend, threads, shards, optimizer: optimizerConfig });
      copy.parameters().set(flat);
      copy.weightsChanged();
      return copy;
    },

    dispose() {
      if (disposed) return;
      disposed = true;
      for (const t of [flat, gradFlat, ...shardGradFlats, optimizer.m, optimizer.v, transposedFlat, cos, sin]) heap.free(t);
      for (const slot of [...trainSlots, ...scoreSlots, ...sampleSlots]) if (slot.workspace !== undefined) freeWorkspace(heap, slot.workspace);
      for (const slot of sampleSlots) if (slot.cache !== undefined) freeCache(heap, slot.cache);
    },
  };
  return model;
}
