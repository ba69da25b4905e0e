// Time per kernel in one sampling shard shaped like an RL turn of the segments rule (one thread): --prompts
// sequences whose KV caches already hold --past tokens each prefill --tokens new ones, then decode up to
// --new tokens (greedy over random weights: no early stop). Prefill and decoding reported apart; minimum
// over repeats of each kernel's wall time (performance.now around each call), and the whole call's.
// Run: npx tsx bench/nn-profile-rl-sample.ts [--prompts 32] [--tokens 90] [--past 100] [--new 6] [--repeats 8]
import { parseArgs } from "node:util";
import { referenceViews } from "./nn-views.js";
import { generateShard } from "../src/nn/generate.js";
import type { Kernels } from "../src/nn/kernels/types.js";
import { KERNEL_SCRATCH_FLOATS, kernelsBuild, kernelsModule, wasmKernels } from "../src/nn/kernels/wasm.js";
import { cacheFloats } from "../src/nn/kv-cache.js";
import { ensureWorkspace } from "../src/nn/shards.js";
import { createRng } from "../src/core/rng.js";

const { values } = parseArgs({
  options: {
    prompts: { type: "string", default: "32" },
    tokens: { type: "string", default: "90" },
    past: { type: "string", default: "100" },
    new: { type: "string", default: "6" },
    repeats: { type: "string", default: "8" },
  },
});
const [P, N, past, maxNew] = [Number(values.prompts), Number(values.tokens), Number(values.past), Number(values.new)];
const { heap, config, model } = referenceViews();
const base = wasmKernels(heap.memory, kernelsModule(), heap.allocFloats(KERNEL_SCRATCH_FLOATS));
const totals = new Map<string, number>();
let phase = "prefill";
const timed =
  <A extends unknown[]>(name: string, fn: (...args: A) => void) =>
  (...args: A): void => {
    const t = performance.now();
    fn(...args);
    const k = `${phase} ${name}`;
    totals.set(k, (totals.get(k) ?? 0) + performance.now() - t);
    if (name === "linear" && args[8] === config.vocabSize) phase = "decode"; // the head: prefill is over
  };
const kernels: Kernels = Object.fromEntries(
  Object.entries(base).map(([name, fn]) => [
    name,
    typeof fn === "function" ? timed(name === "gemmPanels" ? "linear" : name, fn as (...args: unknown[]) => void) : fn,
  ]),
) as unknown as Kernels;
const rng = createRng(3);
const prefixes = Array.from({ length: P }, () => Int32Array.from({ length: past }, () => rng.int(260)));
const chunks = Array.from({ length: P }, () => Int32Array.from({ length: N }, () => rng.int(260)));
const slot = { workspace: undefined };
const ws = ensureWorkspace(
  heap,
  config,
  slot,
  chunks.map(() => Math.max(N, past)),
  "sample",
);
const blocks = chunks.map(() => heap.allocFloats(cacheFloats(config)));
const cache = new Float32Array(heap.memory.buffer);
const slots = blocks.map((b) => b.byteOffset / 4);
const options = { maxNewTokens: maxNew, temperature: 0, topP: 1, stopTokens: [] };
console.log(
  `kernels: ${kernelsBuild()}; ${P} sequences x (${past} cached + ${N} new tokens), ${maxNew} decoded each, one thread`,
);
const best = new Map<string, number>();
let bestWall = Infinity;
for (let i = 0; i <= Number(values.repeats); i++) {
  if (past > 0)
    generateShard(
      base,
      model,
      ws,
      prefixes,
      { cache, slots, pasts: prefixes.map(() => 0) },
      prefixes.map((_, s) => s),
      { ...options, maxNewTokens: 1 },
    );
  totals.clear();
  phase = "prefill";
  const t0 = performance.now();
  generateShard(
    kernels,
    model,
    ws,
    chunks,
    { cache, slots, pasts: chunks.map(() => past) },
    chunks.map((_, s) => s),
    options,
  );
  if (i === 0) continue;
  bestWall = Math.min(bestWall, performance.now() - t0);
  for (const [k, v] of totals) best.set(k, Math.min(best.get(k) ?? Infinity, v));
}
const sums = new Map<string, number>();
for (const [k, v] of best) sums.set(k.split(" ")[0]!, (sums.get(k.split(" ")[0]!) ?? 0) + v);
console.log(
  `best wall ${bestWall.toFixed(1)} ms (with timers); ${[...sums].map(([k, v]) => `${k} kernels ${v.toFixed(1)} ms`).join(", ")}`,
);
for (const [k, v] of [...best.entries()].sort((a, b) => b[1] - a[1]))
  console.log(`${v.toFixed(2).padStart(8)} ms  ${k}`);
