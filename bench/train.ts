// RL training throughput on the reference model (vocab 260, 4 layers, d_model 128) with 16 tasks x 8 samples
// per step on sokoban, for several paths in the same run: each path is a context rule (history) and a
// context length. Per path: a short SFT warm start under that rule (so that replies are mostly valid and
// groups carry gradients), then timed GRPO steps on the same seeded tasks and budgets. Prints RL steps per
// minute, tokens per second (sampled + trained) and processed tokens per second (everything the model ran),
// and each path's steps/min as a ratio to the first path's.
//   window:256    the old path: every turn re-renders and re-prefills the newest messages that fit, and is
//                 trained as its own sequence
//   segments:N    the KV cache of an episode is kept across turns (each turn prefills its new tokens) and each
//                 segment of an episode is trained as one sequence
// Run: npx tsx bench/train.ts [--sft-steps 40] [--steps 3] [--paths window:256,segments:256]
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { HISTORIES, type History } from "../src/policies/tiny/context.js";
import { runSft } from "../src/rl/sft-run.js";
import { train, type StepMetrics } from "../src/rl/train.js";

const { values } = parseArgs({
  options: { "sft-steps": { type: "string", default: "40" }, steps: { type: "string", default: "3" }, paths: { type: "string", default: "window:256,segments:256" } },
});

interface Path {
  readonly history: History;
  readonly contextLength: number;
}

function parsePath(text: string): Path {
  const [history, context] = text.split(":");
  if (!HISTORIES.includes(history as History) || !(Number(context) > 0)) throw new Error(`--paths: "${text}" is not HISTORY:CONTEXT (history one of ${HISTORIES.join(", ")})`);
  return { history: history as History, contextLength: Number(context) };
}

interface Measured {
  readonly path: Path;
  readonly stepsPerMinute: number;
  readonly tokensPerSecond: number;
  readonly processedPerSecond: number;
}

async function measure(path: Path, dir: string): Promise<Measured> {
  const label = `${path.history}:${path.contextLength}`;
  let started = performance.now();
  await runSft({
    out: join(dir, "base"),
    config: { env: "sokoban", policy: "noisy-oracle:0.3", tasks: 200, samples: 2, steps: Number(values["sft-steps"]), batchSize: 32, maxNewTokens: 16, modelConfig: { contextLength: path.contextLength }, history: path.history },
  });
  console.log(`${label}: SFT warm start, ${values["sft-steps"]} steps in ${((performance.now() - started) / 1000).toFixed(1)} s (demonstrations included)`);
  const steps: StepMetrics[] = [];
  started = performance.now();
  await train({
    out: join(dir, "rl"),
    config: {
      env: "sokoban", init: join(dir, "base"), algo: "grpo", budget: "budgetmix:25%,50%,75%,100%", tasksPerStep: 16, group: 8, steps: Number(values.steps), learningRate: 1e-4,
      evalEvery: 0, checkpointEvery: 1000, maxNewTokens: 16, history: path.history,
    },
    onStep: (metrics) => steps.push(metrics),
  });
  for (const metrics of steps) {
    console.log(`  step ${metrics.step}: ${metrics.seconds.toFixed(1)} s, ${metrics.tokens} tokens, ${metrics.processedTokens} processed, success ${metrics.success.toFixed(3)}, turns ${metrics.turns.toFixed(1)}, invalid ${metrics.invalid.toFixed(2)}, no-gradient groups ${metrics.zeroGradientGroups}/16`);
  }
  const seconds = steps.reduce((sum, metrics) => sum + metrics.seconds, 0);
  const tokens = steps.reduce((sum, metrics) => sum + metrics.tokens, 0);
  const processed = steps.reduce((sum, metrics) => sum + metrics.processedTokens, 0);
  return { path, stepsPerMinute: (steps.length / seconds) * 60, tokensPerSecond: tokens / seconds, processedPerSecond: processed / seconds };
}

const results: Measured[] = [];
for (const path of values.paths.split(",").map(parsePath)) {
  const dir = mkdtempSync(join(tmpdir(), "budgetrl-bench-train-"));
  try {
    results.push(await measure(path, dir));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
const reference = results[0]!;
for (const result of results) {
  const label = `${result.path.history}:${result.path.contextLength}`.padEnd(14);
  console.log(
    `RL (GRPO, BudgetMix, 16 tasks x 8 samples) ${label} ${result.stepsPerMinute.toFixed(1).padStart(5)} steps/min (${(result.stepsPerMinute / reference.stepsPerMinute).toFixed(2)}x ${reference.path.history}:${reference.path.contextLength}), ` +
      `${Math.round(result.tokensPerSecond).toLocaleString("en-US")} tokens/s (sampled + trained), ${Math.round(result.processedPerSecond).toLocaleString("en-US")} tokens/s processed (prompts prefilled, replies decoded, sequences trained)`,
  );
}
