// The last block and the head on the output rows only (src/nn/outputs.ts) against the same shard computed on
// every row: log-probs and entropy of the target rows bit for bit, every gradient tensor to float rounding
// (the sums skip rows whose gradient is exactly zero, so they group differently); and the span bookkeeping.
import { describe, expect, it } from "vitest";
import { createRng } from "../../src/core/rng.js";
import { packLengths } from "../../src/nn/attention.js";
import type { ModelConfig } from "../../src/nn/config.js";
import { sharedHeap } from "../../src/nn/heap.js";
import { runJob } from "../../src/nn/jobs.js";
import { referenceKernels } from "../../src/nn/kernels/reference.js";
import type { Kernels } from "../../src/nn/kernels/types.js";
import { KERNEL_SCRATCH_FLOATS, kernelsModule, wasmKernels } from "../../src/nn/kernels/wasm.js";
import { expandRows, findOutputRows, type OutputRows } from "../../src/nn/outputs.js";
import { bindWeights, parameterCount } from "../../src/nn/params.js";
import { allocateWorkspace, probsSize } from "../../src/nn/workspace.js";
import { buildViews } from "./helpers.js";

const heap = sharedHeap();

describe("output rows", () => {
  it("finds the spans of rows with a target, per sequence, and expands compact rows in place", () => {
    const packing = packLengths([4, 3, 5]);
    const targets = [7, -1, 3, 4, /**/ -1, -1, -1, /**/ 1, 2, -1, -1, 9];
    const outputs = findOutputRows(packing, targets);
    expect(outputs.count).toBe(6);
    expect(outputs.spans).toEqual([
      { sequence: 0, index: 0, position: 0, length: 1 },
      { sequence: 0, index: 1, position: 2, length: 2 },
      { sequence: 2, index: 3, position: 0, length: 2 },
      { sequence: 2, index: 5, position: 4, length: 1 },
    ]);
    const x = Float32Array.from([10, 11, 12, 13, 14, 15, 99, 99, 99, 99, 99, 99]);
    expandRows(x, 1, 12, packing, outputs);
    expect(Array.from(x)).toEqual([10, 0, 11, 12, 0, 0, 0, 13, 14, 0, 0, 15]);
  });
});

/** Forward then backward of one shard, on every row (outputs undefined) or on the output rows. */
function shardPass(
  kernels: Kernels,
  config: Partial<ModelConfig>,
  lengths: number[],
  targets: Int32Array,
  coefficients: Float32Array,
  sparse: boolean,
) {
  const model = buildViews(heap, config, 31);
  const packing = packLengths(lengths);
  const rows = lengths.reduce((a, b) => a + b, 0);
  const ws = allocateWorkspace(heap, model.config, rows, probsSize(model.config, lengths));
  const rng = createRng(32);
  lengths.forEach((n, s) => {
    for (let t = 0; t < n; t++) {
      ws.tokens[packing.starts[s]! + t] = rng.int(model.config.vocabSize);
      ws.positions[packing.starts[s]! + t] = t;
    }
  });
  ws.targets.set(targets);
  const outputs: OutputRows | undefined = sparse ? findOutputRows(packing, targets) : undefined;
  runJob(kernels, {
    kind: "forward",
    model,
    workspace: ws,
    packing,
    rows,
    ...(outputs === undefined ? {} : { outputs }),
  });
  const logprobs = Float32Array.from(ws.logprobs.subarray(0, rows));
  const entropy = Float32Array.from(ws.entropy.subarray(0, rows));
  ws.coefficients.set(coefficients);
  ws.entropyCoefficients.set(coefficients.map((c) => c * 0.3));
  const grads = bindWeights(model.config, heap.allocFloats(parameterCount(model.config)));
  runJob(kernels, {
    kind: "backward",
    model,
    workspace: ws,
    packing,
    rows,
    grads,
    normaliser: 7,
    withEntropy: true,
    ...(outputs === undefined ? {} : { outputs }),
  });
  return { logprobs, entropy, grads: Float32Array.from(grads.flat) };
}

describe.each([
  ["wasm", wasmKernels(heap.memory, kernelsModule(), heap.allocFloats(KERNEL_SCRATCH_FLOATS))],
  ["reference", referenceKernels],
] as const)("the last block on output rows only (%s kernels)", (_name, kernels) => {
  it.each([
    ["dModel a multiple of 8", { vocabSize: 40, contextLength: 64, layers: 3, dModel: 16, heads: 2, hiddenSize: 20 }],
    [
      "dModel not a multiple of 8",
      { vocabSize: 40, contextLength: 64, layers: 2, dModel: 12, heads: 3, hiddenSize: 16 },
    ],
  ] as const)(
    "gives the same log-probs (bit for bit) and gradients (to rounding) as every row (%s)",
    (_label, config) => {
      // Replies between observations: spans of 1..6 rows, one longer than a 16-row attention block, one sequence without any.
      const lengths = [40, 9, 23, 60];
      const rows = lengths.reduce((a, b) => a + b, 0);
      const rng = createRng(33);
      const packing = packLengths(lengths);
      const targets = new Int32Array(rows).fill(-1);
      const spans: [number, number, number][] = [
        [0, 5, 3],
        [0, 20, 6],
        [0, 39, 1],
        [2, 0, 2],
        [2, 11, 4],
        [3, 30, 20],
        [3, 58, 2],
      ];
      for (const [s, position, length] of spans)
        for (let t = 0; t < length; t++) targets[packing.starts[s]! + position + t] = rng.int(config.vocabSize);
      const coefficients = Float32Array.from(targets, (t) => (t >= 0 ? rng.next() * 2 - 1 : 0));
      const dense = shardPass(kernels, config, lengths, targets, coefficients, false);
      const sparse = shardPass(kernels, config, lengths, targets, coefficients, true);
      for (let r = 0; r < rows; r++) {
        if (targets[r]! < 0) {
          expect(sparse.logprobs[r]).toBe(0);
          expect(sparse.entropy[r]).toBe(0);
          continue;
        }
        expect(sparse.logprobs[r]).toBe(dense.logprobs[r]);
        expect(sparse.entropy[r]).toBe(dense.entropy[r]);
      }
      let scale = 0;
      let diff = 0;
      for (let i = 0; i < dense.grads.length; i++) {
        scale = Math.max(scale, Math.abs(dense.grads[i]!));
        diff = Math.max(diff, Math.abs(dense.grads[i]! - sparse.grads[i]!));
      }
      expect(scale).toBeGreaterThan(0);
      expect(diff / scale, `max abs diff ${diff} of gradients up to ${scale}`).toBeLessThan(1e-5);
    },
  );
});
