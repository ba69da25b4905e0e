// The training matmuls of the reference model on one thread, as GFLOP/s and as a ratio to the forward product
// of the same weight measured in the same run (the goal of the weight-gradient kernels is the forward's speed):
//   forward  y(R, N) = x(R, K) . W^T      gemmPanels over the W^T panels (params.ts)
//   dX       dx(R, K) = dy(R, N) . W      matmul, B = W (N, K) row-major
//   dW       dW(N, K) += dy^T . x         matmulTransposedA, A = dy (R, N), B = x (R, K)
// for every weight (qkv, o, gate/up, down, head). Best of --repeats timings per product (CPU time of the one
// thread that runs, after a warm-up round). `--wasm FILE` also times another kernel build in the same run
// (before/after comparisons: its figures are printed next to this build's).
// Run: npx tsx bench/nn-matmul.ts [--rows 2048] [--repeats 7] [--wasm /path/to/kernels-fma.wasm]
import { readFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { resolveConfig } from "../src/nn/config.js";
import { sharedHeap } from "../src/nn/heap.js";
import type { Kernels } from "../src/nn/kernels/types.js";
import { KERNEL_SCRATCH_FLOATS, kernelsBuild, kernelsModule, wasmKernels } from "../src/nn/kernels/wasm.js";
import { transposeToPanels } from "../src/nn/params.js";

const { values } = parseArgs({
  options: {
    rows: { type: "string", default: "2048" },
    repeats: { type: "string", default: "7" },
    wasm: { type: "string" },
  },
});
const R = Number(values.rows);
const repeats = Number(values.repeats);
const config = resolveConfig();
const { dModel: C, hiddenSize: F, vocabSize: V } = config;
const heap = sharedHeap();
const builds: [string, Kernels][] = [
  [
    `this build (${kernelsBuild()})`,
    wasmKernels(heap.memory, kernelsModule(), heap.allocFloats(KERNEL_SCRATCH_FLOATS)),
  ],
];
if (values.wasm !== undefined)
  builds.push([
    values.wasm,
    wasmKernels(
      heap.memory,
      new WebAssembly.Module(readFileSync(values.wasm)),
      heap.allocFloats(KERNEL_SCRATCH_FLOATS),
    ),
  ]);

const random = (n: number, seed: number): Float32Array => {
  const out = heap.allocFloats(n);
  let s = seed;
  for (let i = 0; i < n; i++) {
    s = (s * 1103515245 + 12345) >>> 0;
    out[i] = (s / 2 ** 32 - 0.5) * 0.2;
  }
  return out;
};

const weights: [string, number, number][] = [
  ["qkv", 3 * C, C],
  ["o", C, C],
  ["gateUp", 2 * F, C],
  ["down", C, F],
  ["head", V, C],
];
/** CPU milliseconds of this process (one thread runs): less disturbed by other processes than wall time. */
const cpu = (): number => {
  const used = process.cpuUsage();
  return (used.user + used.system) / 1000;
};
/** Best time of each run, the runs taking turns repeat by repeat (so load changes hit them alike); one untimed warm-up round. */
const bestOf = (runs: (() => void)[]): number[] => {
  const min = runs.map(() => Infinity);
  for (let i = 0; i <= repeats; i++) {
    runs.forEach((run, r) => {
      const t0 = cpu();
      run();
      if (i > 0) min[r] = Math.min(min[r]!, cpu() - t0);
    });
  }
  return min;
};
console.log(`rows ${R}, one thread, best of ${repeats}; GFLOP/s and (ratio to the forward product of the same weight)`);
const totals = builds.map(() => ({ forward: 0, dx: 0, dw: 0 }));
for (const [name, N, K] of weights) {
  const w = random(N * K, 1);
  const wT = heap.allocFloats(K * Math.ceil(N / 8) * 8);
  transposeToPanels(wT, w, N, K);
  const x = random(R * K, 2);
  const dy = random(R * N, 3);
  const y = heap.allocFloats(R * N);
  const dx = heap.allocFloats(R * K);
  const dw = heap.allocFloats(N * K);
  const gflop = (ms: number): number => (2 * R * N * K) / (ms * 1e6);
  const times = bestOf(
    builds.flatMap(([, kernels]) => [
      () => kernels.gemmPanels(y, N, x, K, 1, wT, 8 * K, R, N, K, false),
      () => kernels.matmul(dx, dy, w, R, K, N, false),
      () => kernels.matmulTransposedA(dw, dy, x, N, K, R, true),
    ]),
  );
  const cells = builds.map((_, b) => {
    const [forward, dX, dW] = times.slice(3 * b, 3 * b + 3) as [number, number, number];
    totals[b]!.forward += forward;
    totals[b]!.dx += dX;
    totals[b]!.dw += dW;
    return `forward ${gflop(forward).toFixed(1)}, dX ${gflop(dX).toFixed(1)} (${(forward / dX).toFixed(2)}x), dW ${gflop(dW).toFixed(1)} (${(forward / dW).toFixed(2)}x)`;
  });
  console.log(`${name.padEnd(7)} (${N}x${K}): ${cells.join("   |   ")}`);
}
builds.forEach(([label], b) => {
  const t = totals[b]!;
  console.log(
    `${label}: all weights forward ${t.forward.toFixed(1)} ms, dX ${t.dx.toFixed(1)} ms (${(t.forward / t.dx).toFixed(2)}x the forward's speed), dW ${t.dw.toFixed(1)} ms (${(t.forward / t.dw).toFixed(2)}x)`,
  );
});
if (builds.length === 2)
  console.log(
    `dX: this build ${(totals[1]!.dx / totals[0]!.dx).toFixed(2)}x the other's speed; dW ${(totals[1]!.dw / totals[0]!.dw).toFixed(2)}x; forward ${(totals[1]!.forward / totals[0]!.forward).toFixed(2)}x`,
  );
