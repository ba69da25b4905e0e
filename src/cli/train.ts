// `budgetrl train`: RL on the in-process transformer (GRPO-Full, process-supervised, GiGPO; fixed or BudgetMix
// budgets), with a progress bar, a log line per step, held-out evaluations and resumable checkpoints; or on a
// model behind a Tinker server (--backend tinker --tinker-url URL --base-model NAME): the server's address and
// the environment variable holding its API key are run options, given again on --resume, never stored; the key
// itself is read from the environment and never printed.
import { z } from "zod";
import { trainResumeCommand } from "../core/commands.js";
import { ConfigError } from "../core/errors.js";
import { trainConfigSchema } from "../rl/train-config.js";
import { train, type StepMetrics } from "../rl/train.js";
import { renderPassTable } from "../report/pass-table.js";
import { defineCommand } from "./command.js";
import { keyJsonValues, keyValues, modelOverrides } from "./key-values.js";
import { createProgress } from "./progress.js";
import { reportIgnoredOnResume } from "./resume-flags.js";

const schema = trainConfigSchema.omit({ envOptions: true, modelConfig: true, templateOptions: true }).extend({
  env: trainConfigSchema.shape.env.default("sokoban"),
  envOpt: z.array(z.string()).default([]).describe("environment option KEY=VALUE"),
  templateOpt: z.array(z.string()).default([]).describe("hf renderer: chat-template variable KEY=VALUE, VALUE read as JSON when it is JSON, else as text (enable_thinking=false)"),
  model: z.array(z.string()).default([]).describe("model config KEY=NUMBER for a fresh model (layers, dModel, heads, hiddenSize, contextLength)"),
  out: z.string().describe("run folder: config, train.db (step log, eval runs), checkpoints/"),
  resume: z.boolean().default(false).describe("continue the run in --out from its newest checkpoint"),
  progress: z.boolean().default(true).describe("show a progress bar on stderr"),
  tinkerUrl: z.string().optional().describe("tinker: the server, without /api/v1 (default: $TINKER_BASE_URL); not stored, give it again with --resume"),
  tinkerApiKeyEnv: z.string().default("TINKER_API_KEY").describe("tinker: environment variable holding the API key (never printed or stored; local servers need none)"),
  tinkerTimeout: z.number().int().min(1).default(120_000).describe("tinker: milliseconds allowed per HTTP request"),
  lambda: z.number().min(0).optional().describe("older name of --turn-weight, read with --algo turn only"),
  stepWeight: z.number().min(0).optional().describe("older name of --turn-weight, read with --algo gigpo only"),
});

/** The weight fields as train() reads them: --lambda and --step-weight (older names of --turn-weight) as given,
 * without --turn-weight's default beside them (the config reads the one its --algo read; a given --turn-weight
 * beside them is refused). */
function weightFields<Fields extends { readonly turnWeight: number; readonly lambda?: number | undefined; readonly stepWeight?: number | undefined }>(fields: Fields, given: ReadonlyMap<string, string>): Partial<Fields> {
  if (given.has("turnWeight") || (fields.lambda === undefined && fields.stepWeight === undefined)) return fields;
  const { turnWeight: _default, ...older } = fields;
  return older as Partial<Fields>;
}

/** The run option `tinker` of train(): URL from the flag or $TINKER_BASE_URL, key from the named variable. */
export function tinkerConnection(options: { readonly tinkerUrl?: string | undefined; readonly tinkerApiKeyEnv: string; readonly tinkerTimeout: number }, environment: NodeJS.ProcessEnv = process.env): { baseUrl: string; apiKey?: string; timeoutMs: number } | undefined {
  const baseUrl = options.tinkerUrl ?? environment.TINKER_BASE_URL;
  if (baseUrl === undefined || baseUrl === "") return undefined;
  if (!/^https?:\/\/[^/]/.test(baseUrl)) throw new ConfigError("tinkerUrl", `${JSON.stringify(baseUrl)} is not an http(s) URL`, "e.g. --tinker-url http://localhost:8000");
  const apiKey = environment[options.tinkerApiKeyEnv];
  return { baseUrl, timeoutMs: options.tinkerTimeout, ...(apiKey === undefined || apiKey === "" ? {} : { apiKey }) };
}

function stepLine(metrics: StepMetrics, total: number): string {
  return [
    `step ${String(metrics.step + 1).padStart(String(total).length)}/${total}`,
    `reward ${metrics.reward.toFixed(3)}`,
    `success ${metrics.success.toFixed(3)}`,
    `turns ${metrics.turns.toFixed(2)}`,
    `clip ${metrics.clipFraction.toFixed(3)}`,
    `kl ${metrics.kl.toFixed(4)}`,
    `entropy ${Number.isFinite(metrics.entropy) ? metrics.entropy.toFixed(3) : "n/a"}`,
    `${Math.round(metrics.tokensPerSecond)} tok/s`,
    `${metrics.seconds.toFixed(1)} s (rollouts ${metrics.generateSeconds.toFixed(1)}, update ${metrics.updateSeconds.toFixed(1)})`,
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
    "TINKER_API_KEY=... budgetrl train --backend tinker --tinker-url URL --base-model Qwen/Qwen3-8B --lora-rank 32 --backend-loss ppo --env sokoban --out runs/t",
    "budgetrl train --backend tinker --tinker-url URL --base-model Qwen/Qwen3-4B --renderer hf:models/qwen3-4b --template-opt enable_thinking=false --env bfcl --out runs/b",
  ],
  async run(options, io, context) {
    const { envOpt, model, templateOpt, out, resume, progress, tinkerUrl, tinkerApiKeyEnv, tinkerTimeout, ...rest } = options;
    if (resume) reportIgnoredOnResume(io, "train", context.given, ["out", "resume", "progress", "tinkerUrl", "tinkerApiKeyEnv", "tinkerTimeout"]);
    const config = { ...weightFields(rest, context.given), envOptions: keyValues(envOpt, "--env-opt"), modelConfig: modelOverrides(model), templateOptions: keyJsonValues(templateOpt, "--template-opt") };
    const tinker = tinkerConnection({ tinkerUrl, tinkerApiKeyEnv, tinkerTimeout });
    let bar: ReturnType<typeof createProgress> | undefined;
    const result = await train({
      config,
      out,
      resume,
      signal: context.signal,
      // Server messages (session warnings, billing pauses) go to stderr as they come.
      ...(tinker === undefined ? {} : { tinker: { ...tinker, onNotice: (notice) => io.stderr(`${notice.message}\n`) } }),
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
