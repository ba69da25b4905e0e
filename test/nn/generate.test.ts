// KV-cache decoding against the full-sequence forward pass: every logit of every step.
import { describe, expect, it } from "vitest";
import { attendCache, attendSequences, packLengths } from "../../src/nn/attention.js";
import { forwardBlocks, forwardHead } from "../../src/nn/forward.js";
import { sharedHeap } from "../../src/nn/heap.js";
import { prefill } from "../../src/nn/prefill.js";
import { referenceKernels } from "../../src/nn/kernels/reference.js";
import { KERNEL_SCRATCH_FLOATS, kernelsModule, wasmKernels } from "../../src/nn/kernels/wasm.js";
import { cacheFloats } from "../../src/nn/kv-cache.js";
import { allocateWorkspace, probsSize } from "../../src/nn/workspace.js";
import { createRng } from "../../src/core/rng.js";
import { buildViews, maxAbsDiff } from "./helpers.js";

const heap = sharedHeap();

describe.each([
  ["wasm", wasmKernels(heap.memory, kernelsModule(), heap.allocFloats(KERNEL_SCRATCH_FLOATS))],
  ["reference", referenceKernels],
] as const)("KV-cache decoding (%s kernels)", (_name, kernels) => {
  it("gives the logits of the full forward pass at every position (max abs diff < 1e-4)", () => {
    const config = { vocabSize: 260, contextLength: 40, layers: 2, dModel: 32, heads: 4, hiddenSize: 40 };
    const model = buildViews(heap, config, 11);
    const rng = createRng(12);
    const lengths = [30, 23];
    const prompts = [9, 1];
    const seqs = lengths.map((n) => Int32Array.from({ length: n }, () => rng.int(260)));
    // Full forward over both sequences, packed.
    const full = allocateWorkspace(heap, model.config, 60, probsSize(model.config, lengths));
    const packing = packLengths(lengths);
    seqs.forEach((s, i) => {
      full.tokens.set(s, packing.starts[i]!);
      for (let t = 0; t < s.length; t++) full.positions[packing.starts[i]! + t] = t;
    });
    forwardBlocks(kernels, model, full, 53, attendSequences(kernels, model, packing, full));
    const expected = Float32Array.from(forwardHead(kernels, model, full, full.xOut, 53));
    // Prefill the prompts, then decode the rest one token per step, both sequences in one batch.
    const ws = allocateWorkspace(heap, model.config, 60, probsSize(model.config, prompts));
    const blocks = [heap.allocFloats(cacheFloats(model.config)), heap.allocFloats(cacheFloats(model.config))];
    const cache = new Float32Array(heap.memory.buffer);
    const slots = blocks.map((b) => b.byteOffset / 4);
    const prefillPacking = packLengths(prompts);
    seqs.forEach((s, i) => {
      ws.tokens.set(s.subarray(0, prompts[i]!), prefillPacking.starts[i]!);
      for (let t = 0; t < prompts[i]!; t++) ws.positions[prefillPacking.starts[i]! + t] = t;
    });
    // Only the last prompt rows (8 and 9) go past the last block's keys and values, into rows 0 and 1.
    prefill(kernels, model, ws, prompts, { cache, slots, pasts: [0, 0] });
    const prefillLogits = forwardHead(kernels, model, ws, ws.xOut, 2);
    const V = 260;
    const row = (s: number, t: number): Float32Array =>
      expected.subarray((packing.starts[s]! + t) * V, (packing.starts[s]! + t + 1) * V);
    let worst = maxAbsDiff(prefillLogits.subarray(0, V), row(0, 8));
    worst = Math.max(worst, maxAbsDiff(prefillLogits.subarray(V, 2 * V), row(1, 0)));
    for (let step = 0; ; step++) {
      const active = [0, 1].filter((s) => prompts[s]! + step < lengths[s]!);
      if (active.length === 0) break;
      active.forEach((s, r) => {
        ws.tokens[r] = seqs[s]![prompts[s]! + step]!;
        ws.positions[r] = prompts[s]! + step;
      });
      forwardBlocks(
        kernels,
        model,
        ws,
        active.length,
        attendCache(
          kernels,
          model,
          ws,
          cache,
          active.map((s) => slots[s]!),
        ),
      );
      const logits = forwardHead(kernels, model, ws, ws.xOut, active.length);
      active.forEach((s, r) => {
        worst = Math.max(worst, maxAbsDiff(logits.subarray(r * V, (r + 1) * V), row(s, prompts[s]! + step)));
      });
    }
    expect(worst).toBeLessThan(1e-4);
  });
});
