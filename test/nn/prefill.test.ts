// The prompt prefill against the full forward pass: the KV cache holds every layer's keys and values of every
// prompt position (bit for bit what the full pass computes), and the returned stream of each prompt's last
// row equals the full pass's; a prefill in two chunks (the second after what the first cached) gives the same.
import { describe, expect, it } from "vitest";
import { attendSequences, packLengths } from "../../src/nn/attention.js";
import { forwardBlocks, type ModelViews } from "../../src/nn/forward.js";
import { sharedHeap } from "../../src/nn/heap.js";
import { referenceKernels } from "../../src/nn/kernels/reference.js";
import type { Kernels } from "../../src/nn/kernels/types.js";
import { KERNEL_SCRATCH_FLOATS, kernelsModule, wasmKernels } from "../../src/nn/kernels/wasm.js";
import { cacheFloats, layerCache } from "../../src/nn/kv-cache.js";
import { computedChunks, prefill, sharedSources } from "../../src/nn/prefill.js";
import { allocateWorkspace, probsSize, type Workspace } from "../../src/nn/workspace.js";
import { createRng } from "../../src/core/rng.js";
import { buildViews, maxAbsDiff } from "./helpers.js";

const heap = sharedHeap();
const CONFIG = { vocabSize: 260, contextLength: 40, layers: 3, dModel: 16, heads: 2, hiddenSize: 24 };

/** Prefills tokens[from..to) of each sequence (packed) into its block; returns the last rows' streams. */
function prefillChunk(
  kernels: Kernels,
  model: ModelViews,
  sequences: readonly Int32Array[],
  from: readonly number[],
  to: readonly number[],
  blocks: readonly Float32Array[],
): Float32Array {
  const lengths = sequences.map((_, s) => to[s]! - from[s]!);
  const packing = packLengths(lengths);
  const ws = allocateWorkspace(
    heap,
    model.config,
    lengths.reduce((a, b) => a + b, 0),
    1,
  );
  sequences.forEach((seq, s) => {
    ws.tokens.set(seq.subarray(from[s], to[s]), packing.starts[s]!);
    for (let t = 0; t < lengths[s]!; t++) ws.positions[packing.starts[s]! + t] = from[s]! + t;
  });
  return Float32Array.from(
    prefill(kernels, model, ws, lengths, {
      cache: new Float32Array(heap.memory.buffer),
      slots: blocks.map((b) => b.byteOffset / 4),
      pasts: from,
    }).subarray(0, sequences.length * model.config.dModel),
  );
}

describe.each([
  ["wasm", wasmKernels(heap.memory, kernelsModule(), heap.allocFloats(KERNEL_SCRATCH_FLOATS))],
  ["reference", referenceKernels],
] as const)("prefill (%s kernels)", (_name, kernels) => {
  it("caches every layer's keys and values and returns each prompt's last-row stream, in one chunk or two", () => {
    const model = buildViews(heap, CONFIG, 21);
    const { dModel: C, heads: H, contextLength: T, layers: L } = model.config;
    const lengths = [5, 33, 1];
    const rng = createRng(22);
    const sequences = lengths.map((n) => Int32Array.from({ length: n }, () => rng.int(260)));
    const packing = packLengths(lengths);
    const rows = lengths.reduce((a, b) => a + b, 0);
    const full: Workspace = allocateWorkspace(heap, model.config, rows, probsSize(model.config, lengths));
    sequences.forEach((seq, s) => {
      full.tokens.set(seq, packing.starts[s]!);
      for (let t = 0; t < seq.length; t++) full.positions[packing.starts[s]! + t] = t;
    });
    forwardBlocks(kernels, model, full, rows, attendSequences(kernels, model, packing, full));
    const whole = sequences.map(() => heap.allocFloats(cacheFloats(model.config)));
    const out = prefillChunk(kernels, model, sequences, [0, 0, 0], lengths, whole);
    for (let l = 0; l < L; l++) {
      lengths.forEach((n, s) => {
        const expected = layerCache(model.config, heap.allocFloats(cacheFloats(model.config)), 0, l);
        kernels.storeKeysValues(
          expected.keys,
          expected.values,
          full.layers[l]!.qkv.subarray(packing.starts[s]! * 3 * C),
          n,
          0,
          T,
          C,
          H,
        );
        const got = layerCache(model.config, whole[s]!, 0, l);
        expect(Array.from(got.keys)).toEqual(Array.from(expected.keys));
        expect(Array.from(got.values)).toEqual(Array.from(expected.values));
      });
    }
    lengths.forEach((n, s) => {
      const last = packing.starts[s]! + n - 1;
      expect(maxAbsDiff(out.subarray(s * C, (s + 1) * C), full.xOut.subarray(last * C, (last + 1) * C))).toBeLessThan(
        1e-5,
      );
    });
    // Two chunks: a prefix first (its cache kept), then the rest of each sequence after it.
    const split = [2, 17, 0];
    const chunked = sequences.map(() => heap.allocFloats(cacheFloats(model.config)));
    prefillChunk(kernels, model, sequences.slice(0, 2), [0, 0], split.slice(0, 2), chunked.slice(0, 2));
    const second = prefillChunk(kernels, model, sequences, split, lengths, chunked);
    expect(maxAbsDiff(second, out)).toBeLessThan(1e-5);
    chunked.forEach((block, s) =>
      expect(maxAbsDiff(block.subarray(0, cacheFloats(model.config)), whole[s]!)).toBeLessThan(1e-5),
    );
  });

  it("shares: computes identical prompts over an empty cache once, and leaves every block and last-row stream bit for bit as separate prefills", () => {
    const model = buildViews(heap, CONFIG, 23);
    const rng = createRng(24);
    const a = Int32Array.from({ length: 13 }, () => rng.int(260));
    const b = Int32Array.from({ length: 9 }, () => rng.int(260));
    const chunks = [a, b, a, Int32Array.from(a), b, a];
    const pasts = chunks.map(() => 0);
    const sources = sharedSources(chunks, pasts);
    expect(sources).toEqual([0, 1, 0, 0, 1, 0]);
    expect(sharedSources(chunks, [0, 0, 3, 0, 0, 0])).toEqual([0, 1, 2, 0, 1, 0]);
    const separate = chunks.map(() => heap.allocFloats(cacheFloats(model.config)));
    const together = chunks.map(() => heap.allocFloats(cacheFloats(model.config)));
    const expected = prefillChunk(
      kernels,
      model,
      chunks,
      pasts,
      chunks.map((c) => c.length),
      separate,
    );
    const { own, packing } = computedChunks(
      chunks.map((c) => c.length),
      sources,
    );
    expect(own).toEqual([0, 1]);
    const ws = allocateWorkspace(heap, model.config, 22, 1);
    own.forEach((s, k) => {
      ws.tokens.set(chunks[s]!, packing.starts[k]!);
      for (let t = 0; t < chunks[s]!.length; t++) ws.positions[packing.starts[k]! + t] = t;
    });
    const got = prefill(
      kernels,
      model,
      ws,
      chunks.map((c) => c.length),
      { cache: new Float32Array(heap.memory.buffer), slots: together.map((block) => block.byteOffset / 4), pasts },
      sources,
    );
    expect(Array.from(got.subarray(0, chunks.length * model.config.dModel))).toEqual(Array.from(expected));
    together.forEach((block, s) => expect(Array.from(block)).toEqual(Array.from(separate[s]!)));
  });
});
