// Time spent per matmul shape in one training step of one shard (reference size, 8 x 256 rows, one
// thread, CPU time): which products are slow. Run: npx tsx bench/nn-matmul-shapes.ts
import { referenceViews } from "./nn-views.js";
import { packLengths } from "../src/nn/attention.js";
import { attendSequences } from "../src/nn/attention.js";
import { backwardShard } from "../src/nn/backward.js";
import { forwardBlocks, forwardHead } from "../src/nn/forward.js";
import type { Kernels } from "../src/nn/kernels/types.js";
import { KERNEL_SCRATCH_FLOATS, kernelsModule, wasmKernels } from "../src/nn/kernels/wasm.js";
import { bindWeights, parameterCount } from "../src/nn/params.js";
import { allocateWorkspace, probsSize } from "../src/nn/workspace.js";

const { heap, config, model } = referenceViews();
const grads = bindWeights(config, heap.allocFloats(parameterCount(config)));
const lengths = Array.from({ length: 8 }, () => 256);
const ws = allocateWorkspace(heap, config, 2048, probsSize(config, lengths));
for (let r = 0; r < 2048; r++) {
  ws.tokens[r] = (r * 7) % 260;
  ws.targets[r] = (r * 13) % 260;
  ws.positions[r] = r % 256;
}
const base = wasmKernels(heap.memory, kernelsModule(), heap.allocFloats(KERNEL_SCRATCH_FLOATS));
const totals = new Map<string, number>();
const cpu = (): number => process.cpuUsage().user / 1000;
const timed =
  <A extends unknown[]>(name: string, fn: (...args: A) => void, key: (...args: A) => string) =>
  (...args: A): void => {
    const t = cpu();
    fn(...args);
    const k = `${name} ${key(...args)}`;
    totals.set(k, (totals.get(k) ?? 0) + cpu() - t);
  };
const kernels: Kernels = {
  ...base,
  matmul: timed("matmul", base.matmul, (_o, _a, _b, m, n, k) => `${m}x${n}x${k}`),
  matmulTransposedA: timed("matmulTA", base.matmulTransposedA, (_o, _a, _b, m, n, k) => `${m}x${n}x${k}`),
  gemm: timed("gemm", base.gemm, (_o, _l, _a, _ars, acs) => (acs === 1 ? "attnNN" : "attnTN")),
  gemmPanels: timed("linear", base.gemmPanels, (_o, _l, _a, _ars, _acs, _b, _ps, m, n, k) => `${m}x${n}x${k}`),
  causalSoftmax: timed("softmax", base.causalSoftmax, () => ""),
  causalSoftmaxBackward: timed("softmaxBack", base.causalSoftmaxBackward, () => ""),
  swigluForward: timed("swiglu", base.swigluForward, () => ""),
  swigluBackward: timed("swigluBack", base.swigluBackward, () => ""),
  rmsnormForward: timed("rmsnorm", base.rmsnormForward, () => ""),
  rmsnormBackward: timed("rmsnormBack", base.rmsnormBackward, () => ""),
  rope: timed("rope", base.rope, () => ""),
};
const packing = packLengths(lengths);
for (let i = 0; i < 3; i++) {
  totals.clear();
  const t0 = cpu();
  forwardBlocks(kernels, model, ws, 2048, attendSequences(kernels, model, packing, ws));
  forwardHead(kernels, model, ws, ws.xOut, 2048);
  ws.logits.fill(0.001);
  backwardShard(kernels, model, grads, ws, 2048, packing);
  const total = cpu() - t0;
  if (i === 2) {
    console.log(`total ${total.toFixed(0)} ms (forward + backward, no loss), one thread, 2048 rows`);
    for (const [k, v] of [...totals.entries()].sort((a, b) => b[1] - a[1]))
      console.log(`${v.toFixed(1).padStart(7)} ms  ${k}`);
  }
}
