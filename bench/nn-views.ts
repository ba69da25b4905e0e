// Shared set-up of the kernel-level nn benchmarks: the reference model's weights, transposed panels and RoPE
// tables in the shared WebAssembly heap, seeded.
import { resolveConfig, type ModelConfig } from "../src/nn/config.js";
import type { ModelViews } from "../src/nn/forward.js";
import { sharedHeap, type Heap } from "../src/nn/heap.js";
import {
  bindTransposed,
  bindWeights,
  initializeWeights,
  parameterCount,
  ropeTables,
  transposedSize,
  transposeWeights,
} from "../src/nn/params.js";

export function referenceViews(seed = 1): { heap: Heap; config: ModelConfig; model: ModelViews } {
  const heap = sharedHeap();
  const config = resolveConfig();
  const flat = heap.allocFloats(parameterCount(config));
  initializeWeights(config, flat, seed);
  const cos = heap.allocFloats(256 * 16);
  const sin = heap.allocFloats(256 * 16);
  ropeTables(config, cos, sin);
  const model: ModelViews = {
    config,
    weights: bindWeights(config, flat),
    transposed: bindTransposed(config, heap.allocFloats(transposedSize(config))),
    cos,
    sin,
  };
  transposeWeights(config, model.weights, model.transposed);
  return { heap, config, model };
}
