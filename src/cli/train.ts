// `budgetrl train`: RL on the in-process transformer (GRPO-Full, process-supervised, GiGPO; fixed or BudgetMix
// budgets), with a progress bar, a log line per step, held-out evaluations and resumable checkpoints; or on a
// model behind a Tinker server (--backend tinker --tinker-url URL --base-model NAME): the server's address and
// the environment variable holding its API key are run options, given again on --resume, never stored; the key
// itself is read from the environment and never printed.
import { z } from "zod";
import { trainResumeCommand } from "../core/commands.js";
import { ConfigError } from "../core/errors.js";
import type { FieldNamer } from "../core/config.js";
import {
  ADVANTAGE_ESTIMATORS,
  advantageEstimator,
  advantageOptionFields,
  estimatorSummaries,
} from "../rl/advantages/registry.js";
import {
  backendConfigSchema,
  parseTrainConfig,
  tinkerBackendFields,
  tinyBackendFields,
  trainConfigSchema,
  TRAINER_BACKENDS,
  type TrainConfigInput,
  type TrainerBackendKind,
} from "../rl/train-config.js";
import { train, type StepMetrics } from "../rl/train.js";
import { renderPassTable } from "../report/pass-table.js";
import { defineCommand } from "./command.js";
import { TINKER_FLAG_KEYS, tinkerFlagFieldsFor } from "./client-flags.js";
import { resolveTinkerReach, type TinkerReach, type TinkerReachFlags } from "../policies/tinker-reach.js";
import { storeWaitFields, storeWaits } from "./store-flags.js";
import { keyJsonValues, keyValues, modelOverrides } from "./key-values.js";
import { createProgress } from "./progress.js";
import { reportIgnoredOnResume } from "./resume-flags.js";

const {
  backend: _backend,
  algo: _algo,
  envOptions: _envOptions,
  env: envField,
  ...commonFields
} = trainConfigSchema.shape;
const { modelConfig: _modelConfig, ...tinyFlags } = tinyBackendFields;
const { templateOptions: _templateOptions, baseModel, ...tinkerFlags } = tinkerBackendFields;

/** The flags stay flat (--backend tinker --base-model X --algo gigpo --turn-weight 2); the config is built from them
 * with its `backend` and `algo` unions (configOfFlags), refusing the other backend's or estimator's flag, naming it. */
const schema = z.object({
  env: envField.default("sokoban"),
  envOpt: z.array(z.string()).default([]).describe("environment option KEY=VALUE"),
  ...commonFields,
  algo: z.enum(ADVANTAGE_ESTIMATORS).default("grpo").describe(`advantage estimator: ${estimatorSummaries()}`),
  ...advantageOptionFields,
  backend: z
    .enum(TRAINER_BACKENDS)
    .default("tiny")
    .describe(backendConfigSchema.description ?? ""),
  ...tinyFlags,
  model: z
    .array(z.string())
    .default([])
    .describe("tiny: model config KEY=NUMBER for a fresh model (layers, dModel, heads, hiddenSize, contextLength)"),
  baseModel: baseModel.optional(),
  ...tinkerFlags,
  templateOpt: z
    .array(z.string())
    .default([])
    .describe(
      "tinker, hf renderer: chat-template variable KEY=VALUE, VALUE read as JSON when it is JSON, else as text (enable_thinking=false)",
    ),
  out: z.string().describe("run folder: config, train.db (step log, eval runs), checkpoints/"),
  resume: z.boolean().default(false).describe("continue the run in --out from its newest checkpoint"),
  progress: z.boolean().default(true).describe("show a progress bar on stderr"),
  ...storeWaitFields,
  // How Tinker is reached: the same flags, defaults and caps as every command's (policies/tinker-reach.ts).
  ...tinkerFlagFieldsFor("tinker"),
});

/** The flags of config fields whose flag is not their kebab-case name. */
const FLAGS: Readonly<Record<string, string>> = {
  envOptions: "--env-opt",
  modelConfig: "--model",
  templateOptions: "--template-opt",
  evalBudgets: "--eval-budget",
};

/** Names a config field by its flag: backend.baseModel -> --base-model (as written when given), a key inside a
 * field after it (--template-opt enable_thinking). */
function flagNamer(given: ReadonlyMap<string, string>): FieldNamer {
  return (path) => {
    const at = path[0] === "backend" || path[0] === "algo" ? 1 : 0;
    const key = String(path[at] ?? path[0] ?? "");
    const field = key === "kind" ? "backend" : key === "name" ? "algo" : key;
    const flag = given.get(field) ?? FLAGS[field] ?? `--${field.replace(/[A-Z]/g, (char) => `-${char.toLowerCase()}`)}`;
    return [flag, ...path.slice(at + 1).map(String)].join(" ");
  };
}

type Flags = Readonly<z.output<typeof schema>>;
type CommonKey = keyof typeof commonFields;
const COMMON_KEYS = Object.keys(commonFields) as CommonKey[];
/** Each backend's flags (the CLI's field names: --model for modelConfig, --template-opt for templateOptions). */
const BACKEND_FLAGS: Readonly<Record<TrainerBackendKind, readonly string[]>> = {
  tiny: ["init", "model"],
  tinker: ["baseModel", ...Object.keys(tinkerFlags), "templateOpt"],
};

type TemplateOptionsInput = NonNullable<Extract<TrainConfigInput["backend"], { kind: "tinker" }>["templateOptions"]>;

/** A flag of another backend or estimator than the one chosen, when one is given: refused, naming the flag. */
function refuseUnread(given: ReadonlyMap<string, string>, keys: readonly string[], chosen: string): void {
  const key = keys.find((candidate) => given.has(candidate));
  if (key === undefined) return;
  throw new ConfigError(flagNamer(given)([key]), `is not read by ${chosen}`);
}

/** The backend's fields of the config: those of the backend chosen, from its flags. */
function backendOfFlags(options: Flags, given: ReadonlyMap<string, string>): TrainConfigInput["backend"] {
  const other = options.backend === "tiny" ? "tinker" : "tiny";
  refuseUnread(given, BACKEND_FLAGS[other], `--backend ${options.backend}`);
  if (options.backend === "tiny")
    return {
      kind: "tiny",
      ...(options.init === undefined ? {} : { init: options.init }),
      ...(options.model.length === 0 ? {} : { modelConfig: modelOverrides(options.model) }),
    };
  if (options.baseModel === undefined) throw new ConfigError(flagNamer(given)(["baseModel"]), "is required");
  const { loraRank, contextLength, renderer, groupSampling, toolCallFormat, backendLoss } = options;
  return {
    kind: "tinker",
    baseModel: options.baseModel,
    loraRank,
    ...(contextLength === undefined ? {} : { contextLength }),
    renderer,
    groupSampling,
    toolCallFormat,
    backendLoss,
    ...(options.templateOpt.length === 0
      ? {}
      : // JSON values (Json's arrays are readonly; the schema's JSON type takes them as they are).
        { templateOptions: keyJsonValues(options.templateOpt, "--template-opt") as TemplateOptionsInput }),
  };
}

/** The estimator and its own options, from their flags. */
function algoOfFlags(options: Flags, given: ReadonlyMap<string, string>): TrainConfigInput["algo"] {
  const own = Object.keys(advantageEstimator(options.algo).options) as (keyof typeof advantageOptionFields)[];
  const others = Object.keys(advantageOptionFields).filter((key) => !(own as string[]).includes(key));
  refuseUnread(given, others, `--algo ${options.algo}`);
  // The branch of `options.algo`: exactly the options its estimator declares (the union's branches are built from
  // them, advantages/registry.ts), each as parsed by that same schema.
  return {
    name: options.algo,
    ...Object.fromEntries(own.map((key) => [key, options[key]])),
  } as TrainConfigInput["algo"];
}

/** The config of a new run, built from its flags: the common fields as parsed, the backend and the estimator. */
function configOfFlags(options: Flags, given: ReadonlyMap<string, string>): TrainConfigInput {
  const common = Object.fromEntries(COMMON_KEYS.map((key) => [key, options[key]])) as Pick<Flags, CommonKey>;
  return {
    ...common,
    env: options.env,
    envOptions: keyValues(options.envOpt, "--env-opt"),
    backend: backendOfFlags(options, given),
    algo: algoOfFlags(options, given),
  };
}

/** The run option `tinker` of train(): how Tinker is reached (policies/tinker-reach.ts); undefined without a URL. */
export function tinkerConnection(
  flags: TinkerReachFlags,
  environment: NodeJS.ProcessEnv = process.env,
): TinkerReach | undefined {
  return resolveTinkerReach(flags, environment);
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
  description:
    "Each step: fresh tasks, a budget per group from the schedule, --group rollouts per task, advantages, clipped policy-gradient updates. Interrupt with Ctrl-C (a checkpoint of the steps done is written) and continue with --resume.",
  schema,
  interruptible: true,
  examples: [
    "budgetrl train --env sokoban --init base.ckpt --algo grpo --budget budgetmix:25%,50%,75%,100% --tasks-per-step 16 --group 8 --steps 200 --seed 1 --out runs/x",
    "budgetrl train --out runs/x --resume",
    "TINKER_API_KEY=... budgetrl train --backend tinker --tinker-url URL --base-model Qwen/Qwen3-8B --lora-rank 32 --backend-loss ppo --env sokoban --out runs/t",
    "budgetrl train --backend tinker --tinker-url URL --base-model Qwen/Qwen3-4B --renderer hf:models/qwen3-4b --template-opt enable_thinking=false --env bfcl --out runs/b",
  ],
  async run(options, io, context) {
    const { out, resume, progress } = options;
    if (resume)
      reportIgnoredOnResume(io, "train", context.given, [
        "out",
        "resume",
        "progress",
        ...TINKER_FLAG_KEYS,
        "busyTimeout",
        "reconnectTimeout",
      ]);
    // A new run's config is parsed here too, so that a refusal names the flag; a resumed run reads its stored one.
    const config = resume ? undefined : configOfFlags(options, context.given);
    if (config !== undefined) parseTrainConfig(config, flagNamer(context.given));
    const tinker = tinkerConnection(options);
    let bar: ReturnType<typeof createProgress> | undefined;
    const result = await train({
      config,
      out,
      resume,
      signal: context.signal,
      storeWaits: storeWaits("train", options, io),
      // Server messages (session warnings, billing pauses) go to stderr as they come.
      ...(tinker === undefined
        ? {}
        : { tinker: { ...tinker, onNotice: (notice) => io.stderr(`${notice.message}\n`) } }),
      onStep: (metrics, total) => {
        if (progress) {
          bar ??= createProgress({
            label: "train",
            total,
            initial: metrics.step,
            unit: "steps",
            interactive: io.interactive,
            write: io.stderr,
          });
          bar.update(metrics.step + 1);
        }
        io.stdout(`${stepLine(metrics, total)}\n`);
      },
      onEval: (point) =>
        io.stdout(
          `\nheld-out evaluation at step ${point.step} (run ${point.run} in ${out}/train.db)\n${renderPassTable(point.table)}\n\n`,
        ),
    });
    bar?.finish();
    io.stdout(
      `${result.finished ? "finished" : "stopped"} after ${result.stepsDone} steps; checkpoint ${result.checkpoint}\n`,
    );
    if (!result.finished) io.stderr(`continue with: ${trainResumeCommand(out)}\n`);
    return result.finished ? 0 : 130;
  },
});
