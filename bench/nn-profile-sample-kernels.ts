// Time per kernel (and per matmul shape) in one sampling shard on one thread: 8 prompts of 200 tokens,
// 32 new tokens, reference size; prefill and decoding reported apart. Wall time of each kernel call
// (performance.now), minimum over repeats. Run: npx tsx bench/nn-profile-sample-kernels.ts [repeats]
import { referenceViews } from "./nn-views.js";
import { generateShard } from "../src/nn/generate.js";
import type { Kernels } from "../src/nn/kernels/types.js";
import { KERNEL_SCRATCH_FLOATS, kernelsBuild, kernelsModule, wasmKernels } from "../src/nn/kernels/wasm.js";
import { cacheFloats } from "../src/nn/kv-cache.js";
import { ensureWorkspace } from "../src/nn/shards.js";
import { createRng } from "../src/core/rng.js";

const { heap, config, model } = referenceViews();
const base = wasmKernels(heap.memory, kernelsModule(), heap.allocFloats(KERNEL_SCRATCH_FLOATS));
const totals = new Map<string, number>();
let phase = "prefill";
const timed =
  <A extends unknown[]>(name: string, fn: (...args: A) => void, key: (...args: A) => string) =>
  (...args: A): void => {
    const t = performance.now();
    fn(...args);
    const k = `${phase} ${name} ${key(...args)}`;
    totals.set(k, (totals.get(k) ?? 0) + performance.now() - t);
    if (name === "linear" && args[8] === config.vocabSize) phase = "decode"; // the head: prefill is over
  };
const rowsKey = (m: number): string => (m > 8 ? "M" : String(m));
const kernels: Kernels = {
  ...base,
  matmul: timed("matmul", base.matmul, (_o, _a, _b, m, n, k) => `${rowsKey(m)}x${n}x${k}`),
  gemmPanels: timed("linear", base.gemmPanels, (_o, _l, _a, _ars, _acs, _b, _ps, m, n, k) => `${rowsKey(m)}x${n}x${k}`),
  gemm: timed("gemm", base.gemm, (_o, _l, _a, _ars, _acs, _b, _ldb, m, n) =>
    m > 16 ? `${rowsKey(m)}x${n}` : "attention",
  ),
  causalSoftmax: timed("softmax", base.causalSoftmax, () => ""),
  swigluForward: timed("swiglu", base.swigluForward, () => ""),
  rmsnormForward: timed("rmsnorm", base.rmsnormForward, () => ""),
  rope: timed("rope", base.rope, () => ""),
  cachedAttention: timed("cachedAttention", base.cachedAttention, () => ""),
  samplingWeights: timed("samplingWeights", base.samplingWeights, () => ""),
  causalAttention: timed("causalAttention", base.causalAttention, () => ""),
  storeKeysValues: timed("storeKeysValues", base.storeKeysValues, () => ""),
};
const rng = createRng(3);
const prompts = Array.from({ length: 8 }, () => Int32Array.from({ length: 200 }, () => rng.int(260)));
const slot = { workspace: undefined };
const ws = ensureWorkspace(
  heap,
  config,
  slot,
  prompts.map((p) => p.length),
  "sample",
);
const blocks = prompts.map(() => heap.allocFloats(cacheFloats(config)));
const targets = {
  cache: new Float32Array(heap.memory.buffer),
  slots: blocks.map((b) => b.byteOffset / 4),
  pasts: prompts.map(() => 0),
};
const seeds = prompts.map((_, i) => i);
const options = { maxNewTokens: 32, temperature: 0.8, topP: 1, stopTokens: [] };
console.log(`kernels: ${kernelsBuild()}`);
// Per kernel key: the minimum over repeats of its time in one sampling call (noise only adds time).
const best = new Map<string, number>();
let bestWall = Infinity;
for (let i = 0; i < Number(process.argv[2] ?? 10); i++) {
  totals.clear();
  phase = "prefill";
  const t0 = performance.now();
  generateShard(kernels, model, ws, prompts, targets, seeds, options);
  bestWall = Math.min(bestWall, performance.now() - t0);
  if (i === 0) continue;
  for (const [k, v] of totals) best.set(k, Math.min(best.get(k) ?? Infinity, v));
}
console.log(`one shard (8 x 200 tokens, 32 new), one thread: best wall ${bestWall.toFixed(1)} ms (with timers)`);
const sums = new Map<string, number>();
for (const [k, v] of best) sums.set(k.split(" ")[0]!, (sums.get(k.split(" ")[0]!) ?? 0) + v);
console.log([...sums].map(([k, v]) => `${k} kernels ${v.toFixed(1)} ms`).join(", "));
for (const [k, v] of [...best.entries()].sort((a, b) => b[1] - a[1]))
  console.log(`${v.toFixed(2).padStart(8)} ms  ${k}`);
