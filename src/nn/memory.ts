// A model's tensors in the shared heap: the flat weights (Hugging Face order), the gradient (one buffer per
// shard: shard s accumulates into its own, and they are summed in shard order), the AdamW moments, the
// forward weights transposed into the matmul's panel layout, and the rotary tables; with the views that
// shard jobs read.
import type { ModelConfig } from "./config.js";
import { headDim } from "./config.js";
import type { ModelViews } from "./forward.js";
import type { Heap } from "./heap.js";
import type { OptimizerState } from "./optimizer.js";
import {
  bindTransposed,
  bindWeights,
  initializeWeights,
  parameterSpecs,
  ropeTables,
  transposedSize,
  transposeWeights,
  type ParameterSpec,
  type Weights,
} from "./params.js";

export interface ModelMemory {
  readonly specs: readonly ParameterSpec[];
  /** Number of parameters. */
  readonly size: number;
  readonly flat: Float32Array;
  /** The gradient: shard 0 accumulates here; the others into their own buffers, summed in by `sumShardGradients`. */
  readonly gradFlat: Float32Array;
  readonly shardGradFlats: readonly Float32Array[];
  /** Per shard, views of its gradient buffer. */
  readonly shardGrads: readonly Weights[];
  readonly optimizer: OptimizerState;
  readonly views: ModelViews;
  /** Rewrites the transposed forward weights from the flat weights (after any change to them). */
  weightsChanged(): void;
  /** gradFlat += every other shard's gradient, in shard order; those are zeroed. */
  sumShardGradients(): void;
  free(): void;
}

export function allocateModelMemory(heap: Heap, config: ModelConfig, shards: number, seed: number): ModelMemory {
  const specs = parameterSpecs(config);
  const size = specs.reduce((sum, s) => sum + s.length, 0);
  const flat = heap.allocFloats(size);
  const gradFlat = heap.allocFloats(size);
  const shardGradFlats = Array.from({ length: shards - 1 }, () => heap.allocFloats(size));
  const optimizer: OptimizerState = { step: 0, m: heap.allocFloats(size), v: heap.allocFloats(size) };
  const transposedFlat = heap.allocFloats(transposedSize(config));
  const ropeSize = (config.contextLength * headDim(config)) / 2;
  const cos = heap.allocFloats(ropeSize);
  const sin = heap.allocFloats(ropeSize);
  ropeTables(config, cos, sin);
  initializeWeights(config, flat, seed);
  const views: ModelViews = {
    config,
    weights: bindWeights(config, flat),
    transposed: bindTransposed(config, transposedFlat),
    cos,
    sin,
  };
  const shardGrads = [bindWeights(config, gradFlat), ...shardGradFlats.map((f) => bindWeights(config, f))];
  const weightsChanged = (): void => transposeWeights(config, views.weights, views.transposed);
  weightsChanged();
  return {
    specs,
    size,
    flat,
    gradFlat,
    shardGradFlats,
    shardGrads,
    optimizer,
    views,
    weightsChanged,
    sumShardGradients: () => {
      for (const extra of shardGradFlats) {
        for (let i = 0; i < size; i++) gradFlat[i] = gradFlat[i]! + extra[i]!;
        extra.fill(0);
      }
    },
    free: () => {
      for (const t of [flat, gradFlat, ...shardGradFlats, optimizer.m, optimizer.v, transposedFlat, cos, sin])
        heap.free(t);
    },
  };
}
