// Where sampling time goes (reference size, 16 prompts of 200 tokens, 32 new tokens): run with
// `npx tsx --cpu-prof bench/nn-profile-sample.ts [threads]` for a CPU profile, or plainly for timings.
import { createRng } from "../src/core/rng.js";
import { createModel } from "../src/nn/model.js";

const threads = Number(process.argv[2] ?? 1);
const model = await createModel({ seed: 0, threads });
const rng = createRng(1);
const prompts = Array.from({ length: 16 }, () => Array.from({ length: 200 }, () => rng.int(260)));
const seeds = prompts.map((_, i) => i);
// CPU time of this thread (less disturbed by other processes than wall time; meaningful with 1 thread).
const cpu = (): number => process.cpuUsage().user / 1000;
for (let i = 0; i < 5; i++) {
  const t0 = cpu();
  await model.sample(prompts, { maxNewTokens: 1, temperature: 0.8, stopTokens: [], seeds });
  const t1 = cpu();
  await model.sample(prompts, { maxNewTokens: 32, temperature: 0.8, stopTokens: [], seeds });
  const t2 = cpu();
  console.log(
    `cpu ms: prefill+1 ${(t1 - t0).toFixed(0)}, prefill+32 ${(t2 - t1).toFixed(0)}, decode ${(t2 - t1 - (t1 - t0)).toFixed(0)}`,
  );
}
