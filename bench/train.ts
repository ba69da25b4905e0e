// RL training throughput on the reference model (vocab 260, context 256, 4 layers, d_model 128) with 16 tasks x 8
// samples per step on sokoban: a short SFT warm start first (so that replies are mostly valid and groups carry
// gradients), then timed GRPO steps. Prints RL steps per minute and tokens per second (sampled + trained).
// Run: npx tsx bench/train.ts [--sft-steps 40] [--steps 3]
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { runSft } from "../src/rl/sft-run.js";
import { train, type StepMetrics } from "../src/rl/train.js";

const { values } = parseArgs({ options: { "sft-steps": { type: "string", default: "40" }, steps: { type: "string", default: "3" } } });
const dir = mkdtempSync(join(tmpdir(), "budgetrl-bench-train-"));
try {
  let started = performance.now();
  let sftTokens = 0;
  await runSft({
    out: join(dir, "base"),
    config: { env: "sokoban", policy: "noisy-oracle:0.3", tasks: 200, samples: 2, steps: Number(values["sft-steps"]), batchSize: 32, maxNewTokens: 16 },
    onStep: (_step, _total, stats) => void (sftTokens += stats.tokens),
  });
  const sftSeconds = (performance.now() - started) / 1000;
  console.log(`SFT warm start: ${values["sft-steps"]} steps in ${sftSeconds.toFixed(1)} s (demonstrations included)`);

  const steps: StepMetrics[] = [];
  started = performance.now();
  await train({
    out: join(dir, "rl"),
    config: { env: "sokoban", init: join(dir, "base"), algo: "grpo", budget: "budgetmix:25%,50%,75%,100%", tasksPerStep: 16, group: 8, steps: Number(values.steps), learningRate: 1e-4, evalEvery: 0, checkpointEvery: 1000, maxNewTokens: 16 },
    onStep: (metrics) => steps.push(metrics),
  });
  const seconds = steps.reduce((sum, metrics) => sum + metrics.seconds, 0);
  const tokens = steps.reduce((sum, metrics) => sum + metrics.tokens, 0);
  const processed = steps.reduce((sum, metrics) => sum + metrics.processedTokens, 0);
  for (const metrics of steps) console.log(`  step ${metrics.step}: ${metrics.seconds.toFixed(1)} s, ${metrics.tokens} tokens, success ${metrics.success.toFixed(3)}, turns ${metrics.turns.toFixed(1)}, invalid ${metrics.invalid.toFixed(2)}, no-gradient groups ${metrics.zeroGradientGroups}/16`);
  console.log(`RL (GRPO, BudgetMix, 16 tasks x 8 samples): ${((steps.length / seconds) * 60).toFixed(1)} steps/min, ${Math.round(tokens / seconds).toLocaleString("en-US")} tokens/s (sampled + trained), ${Math.round(processed / seconds).toLocaleString("en-US")} tokens/s processed (prompts prefilled, replies sampled, sequences trained)`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
