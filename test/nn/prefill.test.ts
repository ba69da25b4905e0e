// The prompt prefill against the full forward pass: the KV cache holds every layer's keys and values of every
// prompt position (bit for bit what the full pass computes), and the returned stream of each prompt's last
// row equals the full pass's.
import { describe, expect, it } from "vitest";
import { attendSequences, packLengths } from "../../src/nn/attention.js";
import { forwardBlocks } from "../../src/nn/forward.js";
import { sharedHeap } from "../../src/nn/heap.js";
import { referenceKernels } from "../../src/nn/kernels/reference.js";
import { cachePositions } from "../../src/nn/kernels/types.js";
import { KERNEL_SCRATCH_FLOATS, kernelsModule, wasmKernels } from "../../src/nn/kernels/wasm.js";
import { prefill } from "../../src/nn/prefill.js";
import { ensureCache } from "../../src/nn/shards.js";
import { allocateWorkspace, probsSize, type Workspace } from "../../src/nn/workspace.js";
import { createRng } from "../../src/core/rng.js";
import { buildViews, maxAbsDiff } from "./helpers.js";

const heap = sharedHeap();

describe.each([
  ["wasm", wasmKernels(heap.memory, kernelsModule(), heap.allocFloats(KERNEL_SCRATCH_FLOATS))],
  ["reference", referenceKernels],
] as const)("prefill (%s kernels)", (_name, kernels) => {
  it("caches every layer's keys and values and returns each prompt's last-row stream", () => {
    const model = buildViews(heap, { vocabSize: 260, contextLength: 20, layers: 3, dModel: 16, heads: 2, hiddenSize: 24 }, 21);
    const { dModel: C, heads: H, contextLength: T, layers: L } = model.config;
    const lengths = [5, 9, 1];
    const rng = createRng(22);
    const packing = packLengths(lengths);
    const rows = 15;
    const load = (ws: Workspace): void => {
      for (let r = 0; r < rows; r++) ws.tokens[r] = rng.int(260);
      lengths.forEach((n, s) => {
        for (let t = 0; t < n; t++) ws.positions[packing.starts[s]! + t] = t;
      });
    };
    const full = allocateWorkspace(heap, model.config, rows, probsSize(model.config, lengths));
    const ws = allocateWorkspace(heap, model.config, rows, probsSize(model.config, lengths));
    load(full);
    ws.tokens.set(full.tokens);
    ws.positions.set(full.positions);
    forwardBlocks(kernels, model, full, rows, attendSequences(kernels, model, packing, full));
    const slots = [2, 0, 1];
    const cache = ensureCache(heap, model.config, { cache: undefined }, 3);
    const out = prefill(kernels, model, ws, cache, packing, slots);
    const P = cachePositions(T);
    for (let l = 0; l < L; l++) {
      const expectedKeys = heap.allocFloats(3 * C * P);
      const expectedValues = heap.allocFloats(3 * C * P);
      lengths.forEach((n, s) => {
        const base = slots[s]! * C * P;
        kernels.storeKeysValues(expectedKeys.subarray(base), expectedValues.subarray(base), full.layers[l]!.qkv.subarray(packing.starts[s]! * 3 * C), n, 0, T, C, H);
      });
      expect(Array.from(cache.keys[l]!)).toEqual(Array.from(expectedKeys));
      expect(Array.from(cache.values[l]!)).toEqual(Array.from(expectedValues));
    }
    lengths.forEach((n, s) => {
      const last = packing.starts[s]! + n - 1;
      expect(maxAbsDiff(out.subarray(s * C, (s + 1) * C), full.xOut.subarray(last * C, (last + 1) * C))).toBeLessThan(1e-5);
    });
  });
});
