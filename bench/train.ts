// RL training throughput on the reference model (vocab 260, 4 layers, d_model 128) with 16 tasks x 8 samples
// per step on sokoban, for several paths in the same run: each path is a context rule (history) and a
// context length. Per path: a short SFT warm start under that rule (so that replies are mostly valid and
// groups carry gradients), then GRPO steps on the same seeded tasks and budgets. The paths take turns step by
// step (each step resumes its path's run from the checkpoint of the step before; loading and saving are not
// timed), so that a load change on a shared machine hits them alike. Prints per path RL steps per minute,
// tokens per second (sampled + trained), processed tokens per second (everything the model ran) and CPU
// seconds per step (all threads), tokens processed per step, and the ratios of each to the old path at the same
// context (the same config; else to the first path). Two contexts by default: the reference model's 256 tokens
// (a window of two to three sokoban turns, so the old path re-runs each token two to three times) and 1024
// (about half of a median sokoban episode, where it re-runs each token about ten times).
//   window:256    the old path: every turn re-renders and re-prefills the newest messages that fit, and is
//                 trained as its own sequence
//   segments:N    the KV cache of an episode is kept across turns (each turn prefills its new tokens) and each
//                 segment of an episode is trained as one sequence
// Run: npx tsx bench/train.ts [--sft-steps 40] [--steps 3] [--paths window:256,segments:256,window:1024,segments:1024]
// (about 15 minutes on 2 cores; window:1024 takes most of it)
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { HISTORIES, type History } from "../src/policies/tiny/context.js";
import { runSft } from "../src/rl/sft-run.js";
import { train, type StepMetrics } from "../src/rl/train.js";
import { rlConfig, TASKS_PER_STEP, warmStartConfig } from "./rl-setup.js";

const { values } = parseArgs({
  options: { "sft-steps": { type: "string", default: "40" }, steps: { type: "string", default: "3" }, paths: { type: "string", default: "window:256,segments:256,window:1024,segments:1024" } },
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
  readonly steps: StepMetrics[];
  /** CPU seconds (user + system, every thread) of each step. */
  readonly cpu: number[];
}

function label(path: Path): string {
  return `${path.history}:${path.contextLength}`;
}

async function warmStart(path: Path, dir: string): Promise<void> {
  const started = performance.now();
  await runSft({
    out: join(dir, "base"),
    config: warmStartConfig(Number(values["sft-steps"]), path.contextLength, path.history),
  });
  console.log(`${label(path)}: SFT warm start, ${values["sft-steps"]} steps in ${((performance.now() - started) / 1000).toFixed(1)} s (demonstrations included)`);
}

/** Runs step `step` of the path's RL run (resuming it after the first). */
async function rlStep(measured: Measured, dir: string, step: number): Promise<void> {
  const config = rlConfig(join(dir, "base"), Number(values.steps), measured.path.history);
  let cpu = process.cpuUsage();
  await train({
    out: join(dir, "rl"), config, resume: step > 0, stopAfter: step + 1,
    onStep: (metrics) => {
      const used = process.cpuUsage(cpu);
      measured.cpu.push((used.user + used.system) / 1e6);
      measured.steps.push(metrics);
      console.log(`  ${label(measured.path)} step ${metrics.step}: ${metrics.seconds.toFixed(1)} s (generate ${metrics.generateSeconds.toFixed(1)}, update ${metrics.updateSeconds.toFixed(1)}; ${measured.cpu.at(-1)!.toFixed(1)} CPU s), ${metrics.tokens} tokens, ${metrics.processedTokens} processed, success ${metrics.success.toFixed(3)}, turns ${metrics.turns.toFixed(1)}, invalid ${metrics.invalid.toFixed(2)}, no-gradient groups ${metrics.zeroGradientGroups}/${TASKS_PER_STEP}`);
      cpu = process.cpuUsage();
    },
  });
}

const paths = values.paths.split(",").map(parsePath);
const dirs = paths.map(() => mkdtempSync(join(tmpdir(), "budgetrl-bench-train-")));
try {
  for (const [i, path] of paths.entries()) await warmStart(path, dirs[i]!);
  const results: Measured[] = paths.map((path) => ({ path, steps: [], cpu: [] }));
  for (let step = 0; step < Number(values.steps); step++) {
    for (const [i, measured] of results.entries()) await rlStep(measured, dirs[i]!, step);
  }
  const summary = results.map((result) => {
    const seconds = result.steps.reduce((sum, metrics) => sum + metrics.seconds, 0);
    const total = (key: "tokens" | "processedTokens"): number => result.steps.reduce((sum, metrics) => sum + metrics[key], 0);
    return { result, stepsPerMinute: (result.steps.length / seconds) * 60, tokensPerSecond: total("tokens") / seconds, processedPerSecond: total("processedTokens") / seconds, processedPerStep: total("processedTokens") / result.steps.length, cpuPerStep: result.cpu.reduce((a, b) => a + b, 0) / result.cpu.length };
  });
  // Each path is compared with the old path at its own context (the same config), else with the first path.
  const referenceOf = (row: (typeof summary)[number]) => summary.find((other) => other.result.path.history === "window" && other.result.path.contextLength === row.result.path.contextLength) ?? summary[0]!;
  for (const row of summary) {
    const reference = referenceOf(row);
    console.log(
      `RL (GRPO, BudgetMix, 16 tasks x 8 samples) ${label(row.result.path).padEnd(14)} ${row.stepsPerMinute.toFixed(2).padStart(5)} steps/min (${(row.stepsPerMinute / reference.stepsPerMinute).toFixed(2)}x ${label(reference.result.path)}), ` +
        `${Math.round(row.tokensPerSecond).toLocaleString("en-US")} tokens/s (sampled + trained), ${Math.round(row.processedPerSecond).toLocaleString("en-US")} tokens/s processed (prompts prefilled, replies decoded, sequences trained), ` +
        `${Math.round(row.processedPerStep).toLocaleString("en-US")} tokens processed per step (${(reference.processedPerStep / row.processedPerStep).toFixed(2)}x fewer), ${row.cpuPerStep.toFixed(1)} CPU s/step (${(reference.cpuPerStep / row.cpuPerStep).toFixed(2)}x less)`,
    );
  }
} finally {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
}
