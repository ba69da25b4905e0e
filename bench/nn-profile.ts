// Where a training step's time goes (one thread, reference size, batch 16 x 256): run with
// `npx tsx --cpu-prof bench/nn-profile.ts` for a CPU profile, or plainly for phase timings.
import { createRng } from "../src/core/rng.js";
import { createModel } from "../src/nn/model.js";

const threads = Number(process.argv[2] ?? 1);
const model = await createModel({ seed: 0, threads });
const rng = createRng(1);
const B = 16,
  T = 256;
const batch = {
  tokens: Int32Array.from({ length: B * T }, () => rng.int(260)),
  targets: Int32Array.from({ length: B * T }, () => rng.int(260)),
  batchSize: B,
  seqLen: T,
};
const ones = new Float32Array(B * T).fill(1);
// CPU time of this thread (less disturbed by other processes than wall time; meaningful with 1 thread).
const now = (): number => (threads === 1 ? process.cpuUsage().user / 1000 : performance.now());
for (let i = 0; i < Number(process.argv[3] ?? 4); i++) {
  const t0 = now();
  await model.forward(batch);
  const t1 = now();
  await model.backward(ones, { normaliser: B * T });
  const t2 = now();
  model.step();
  const t3 = now();
  console.log(
    `forward ${(t1 - t0).toFixed(0)} ms, backward ${(t2 - t1).toFixed(0)} ms, step ${(t3 - t2).toFixed(0)} ms, tokens/s ${((B * T) / ((t3 - t0) / 1000)).toFixed(0)}`,
  );
}
