// Shared test helpers for the nn tests: a tiny config, seeded batches, and the max-abs-difference report.
import { createRng } from "../../src/core/rng.js";
import type { ModelConfig } from "../../src/nn/config.js";
import type { TokenBatch } from "../../src/nn/model.js";

export const tinyConfig: Partial<ModelConfig> = {
  vocabSize: 20,
  contextLength: 12,
  layers: 2,
  dModel: 8,
  heads: 2,
  hiddenSize: 12,
};

export function randomBatch(config: Partial<ModelConfig>, batchSize: number, seqLen: number, seed: number): TokenBatch {
  const rng = createRng(seed);
  const V = config.vocabSize ?? 260;
  return {
    tokens: Int32Array.from({ length: batchSize * seqLen }, () => rng.int(V)),
    targets: Int32Array.from({ length: batchSize * seqLen }, () => rng.int(V)),
    batchSize,
    seqLen,
  };
}

export function randomArray(length: number, seed: number, scale = 1): Float32Array {
  const rng = createRng(seed);
  return Float32Array.from({ length }, () => (rng.next() * 2 - 1) * scale);
}

export function maxAbsDiff(a: ArrayLike<number>, b: ArrayLike<number>): number {
  if (a.length !== b.length) throw new Error(`length ${a.length} vs ${b.length}`);
  let max = 0;
  for (let i = 0; i < a.length; i++) max = Math.max(max, Math.abs(a[i]! - b[i]!));
  return max;
}

import { resolveConfig } from "../../src/nn/config.js";
import type { ModelViews } from "../../src/nn/forward.js";
import type { Heap } from "../../src/nn/heap.js";
import {
  bindTransposed,
  bindWeights,
  initializeWeights,
  parameterCount,
  ropeTables,
  transposedSize,
  transposeWeights,
} from "../../src/nn/params.js";

/** Model views built by hand (what createModel does), for tests of the internal passes. */
export function buildViews(heap: Heap, partial: Partial<ModelConfig>, seed: number): ModelViews {
  const config = resolveConfig(partial);
  const flat = heap.allocFloats(parameterCount(config));
  initializeWeights(config, flat, seed);
  const noise = randomArray(flat.length, seed + 1, 0.2);
  for (let i = 0; i < flat.length; i++) flat[i] = flat[i]! + noise[i]!;
  const half = (config.contextLength * config.dModel) / config.heads / 2;
  const cos = heap.allocFloats(half);
  const sin = heap.allocFloats(half);
  ropeTables(config, cos, sin);
  const views: ModelViews = {
    config,
    weights: bindWeights(config, flat),
    transposed: bindTransposed(config, heap.allocFloats(transposedSize(config))),
    cos,
    sin,
  };
  transposeWeights(config, views.weights, views.transposed);
  return views;
}
