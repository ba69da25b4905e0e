// `budgetrl train`: RL on the in-process transformer (GRPO-Full, process-supervised, GiGPO; fixed or BudgetMix
// budgets), with a progress bar, a log line per step, held-out evaluations and resumable checkpoints.
import { z } from "zod";
import { trainResumeCommand } from "../core/commands.js";
import { trainConfigSchema } from "../rl/train-config.js";
import { train, type StepMetrics } from "../rl/train.js";
import { renderPassTable } from "../report/pass-table.js";
import { defineCommand } from "./command.js";
import { keyNumbers, keyValues } from "./key-values.js";
import { createProgress } from "./progress.js";
import { reportIgnoredOnResume } from "./resume-flags.js";

const schema = trainConfigSchema.omit({ envOptions: true, modelConfig: true }).extend({
  env: trainConfigSchema.shape.env.default("sokoban"),
  envOpt: z.array(z.string()).default([]).describe("environment option KEY=VALUE"),
  model: z.array(z.string()).default([]).describe("model config KEY=NUMBER for a fresh model (layers, dModel, heads, hiddenSize, contextLength)"),
  out: z.string().describe("run folder: config, train.db (step log, eval runs), checkpoints/"),
  resume: z.boolean().default(false).describe("continue the run in --out from its newest checkpoint"),
  progress: z.boolean().default(true).describe("show a progress bar on stderr"),
});

function stepLine(metrics: StepMetrics, total: number): string {
  return [
    `step ${String(metrics.step + 1).padStart(String(total).length)}/${total}`,
    `reward ${metrics.reward.toFixed(3)}`,
    `success ${metrics.success.toFixed(3)}`,
    `turns ${metrics.turns.toFixed(2)}`,
    `clip ${metrics.clipFraction.toFixed(3)}`,
    `kl ${metrics.kl.toFixed(4)}`,
    `entropy ${metrics.entropy.toFixed(3)}`,
    `${Math.round(metrics.tokensPerSecond)} tok/s`,
    `no-gradient groups ${metrics.zeroGradientGroups}/${metrics.groups}`,
  ].join(" | ");
}

export const trainCommand = defineCommand({
  name: "train",
  summary: "Train the in-process transformer with RL (GRPO-Full, turn-level, GiGPO; fixed or BudgetMix budgets).",
  description: "Each step: fresh tasks, a budget per group from the schedule, --group rollouts per task, advantages, clipped policy-gradient updates. Interrupt with Ctrl-C (a checkpoint of the steps done is written) and continue with --resume.",
  schema,
  interruptible: true,
  examples: [
    "budgetrl train --env sokoban --init base.ckpt --algo grpo --budget budgetmix:25%,50%,75%,100% --tasks-per-step 16 --group 8 --steps 200 --seed 1 --out runs/x",
    "budgetrl train --out runs/x --resume",
  ],
  async run(options, io, context) {
    const { envOpt, model, out, resume, progress, ...rest } = options;
    if (resume) reportIgnoredOnResume(io, "train", context.given, ["out", "resume", "progress"]);
    const config = { ...rest, envOptions: keyValues(envOpt, "--env-opt"), modelConfig: keyNumbers(model, "--model") };
    let bar: ReturnType<typeof createProgress> | undefined;
    const result = await train({
      config,
      out,
      resume,
      signal: context.signal,
      onStep: (metrics, total) => {
        if (progress) {
          bar ??= createProgress({ label: "train", total, initial: metrics.step, unit: "steps", interactive: io.interactive, write: io.stderr });
          bar.update(metrics.step + 1);
        }
        io.stdout(`${stepLine(metrics, total)}\n`);
      },
      onEval: (point) => io.stdout(`\nheld-out evaluation at step ${point.step} (run ${point.run} in ${out}/train.db)\n${renderPassTable(point.table)}\n\n`),
    });
    bar?.finish();
    io.stdout(`${result.finished ? "finished" : "stopped"} after ${result.stepsDone} steps; checkpoint ${result.checkpoint}\n`);
    if (!result.finished) io.stderr(`continue with: ${trainResumeCommand(out)}\n`);
    return result.finished ? 0 : 130;
  },
});
