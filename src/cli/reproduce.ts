// `budgetrl reproduce`: the paper's study on this machine, end to end, with a view of its stages (each with a
// progress bar: rate and ETA), then the budget table and the findings in the terminal and the HTML report on
// disk. Ctrl-C stops at once, keeping what finished; `--resume` continues at the stage that was interrupted.
// Any model source: the base made here by SFT (default), a served model (--base openai:MODEL --base-url URL), or a
// Tinker service's base model (--trainer tinker --base-model NAME --tinker-url URL, which also trains the RL runs
// there). Where the servers are is a run option: never stored, given again with --resume. The served base's client
// flags are eval's, generated from clientOptionsSchema (client-flags.ts), and travel as its typed client options to
// each of its evaluations; its sampling options (--base-opt) are read to their types before any work.
import { readFileSync } from "node:fs";
import { z } from "zod";
import { BUDGET_SCOPES } from "../core/budget.js";
import { shellWord } from "../core/commands.js";
import { ConfigError } from "../core/errors.js";
import { tinkerBackendFields } from "../rl/train-config.js";
import { renderBudgetTables, renderFindings, renderStepQualityByBudget } from "../report/study-tables.js";
import {
  SIZE_FIELDS,
  STUDY_ENVS,
  STUDY_PRESETS,
  VARIANT_SLUGS,
  type PresetSizes,
  type StudyChoice,
  type VariantSlug,
} from "../study/config.js";
import { reproduce } from "../study/reproduce.js";
import {
  parseBaseOptions,
  parseBaseSource,
  TRAINER_KINDS,
  type StudyReach,
  type TrainerSourceInput,
} from "../study/sources.js";
import { STAGES, type StageEvents } from "../study/stages.js";
import {
  CLIENT_FLAG_KEYS,
  clientFlagFieldsFor,
  clientOptionsOf,
  TINKER_FLAG_KEYS,
  tinkerFlagFieldsFor,
} from "./client-flags.js";
import { defineCommand, type CliIo } from "./command.js";
import { viewUrlField } from "./view-url-flag.js";
import { keyJsonValues, keyValues } from "./key-values.js";
import { createProgress, formatDuration, type Progress } from "./progress.js";
import { reportIgnoredOnResume } from "./resume-flags.js";
import { tinkerConnection } from "./train.js";

/** How the study reaches the Tinker service: the flags every command has (policies/tinker-reach.ts), never stored,
 * given again with --resume. (The served base's server: the openai client flags, clientFlagFieldsFor.) */
const tinkerReachFlags = tinkerFlagFieldsFor("tinker trainer");

/** The Tinker trainer's fields, read with --trainer tinker only (stored with the study). */
const tinkerFlags = {
  baseModel: z
    .string()
    .min(1)
    .optional()
    .describe("tinker trainer: the base model every RL run trains a LoRA of, as the service names it"),
  loraRank: tinkerBackendFields.loraRank.optional().describe("tinker trainer: LoRA rank"),
  renderer: z
    .string()
    .optional()
    .describe(
      "tinker trainer: bytes (budgetrl's byte tokenizer, default) or hf:DIR (a model's own tokenizer.json and chat template, copied into DIR)",
    ),
  templateOpt: z
    .array(z.string())
    .default([])
    .describe("tinker trainer, hf renderer: chat-template variable KEY=VALUE (enable_thinking=false)"),
  toolCallFormat: tinkerBackendFields.toolCallFormat
    .optional()
    .describe("tinker trainer, hf renderer: how replies' tool calls are parsed"),
  backendLoss: tinkerBackendFields.backendLoss
    .optional()
    .describe("tinker trainer: none (the loss as per-token coefficients) or the service's ppo / importance_sampling"),
  contextLength: tinkerBackendFields.contextLength.describe(
    "tinker trainer: the model's context in tokens (default: the service's max_context_length)",
  ),
};

const schema = z.object({
  preset: z
    .enum(STUDY_PRESETS)
    .default("quick")
    .describe("study size: quick (minutes; CI runs it) or full (under 45 minutes on 2 cores; what README quotes)"),
  env: z
    .enum(STUDY_ENVS)
    .optional()
    .describe(
      "test every claim on this one env (default: the two-env design: vault and thin ice, both with a budget trade-off, every claim on both where it can move)",
    ),
  envOpt: z.array(z.string()).default([]).describe("environment option KEY=VALUE"),
  budget: z
    .string()
    .optional()
    .describe(
      "with --env: the budgets T of the study (default: the env's design: 1.25x,1.5x,2x,3x; bfcl 10%,25%,50%,100% per user turn)",
    ),
  budgetScope: z
    .enum(BUDGET_SCOPES)
    .optional()
    .describe("with --env: what a budget counts (default: the env's design; bfcl user-turn)"),
  variants: z
    .string()
    .optional()
    .describe(`with --env: the RL runs, comma-separated (default: all of ${VARIANT_SLUGS.join(", ")})`),
  size: z
    .array(z.string())
    .default([])
    .describe(
      `preset field KEY=VALUE, VALUE read as JSON where it is JSON (heldOutTasks=4, model='{"layers":1}'); fields: ${SIZE_FIELDS.join(", ")}`,
    ),
  seeds: z
    .string()
    .optional()
    .describe(
      "the study's seeds, comma-separated (default: the preset's: quick 1, full 1-6): each replicates the whole pipeline (demonstrations, base, RL runs, evaluations) on the same held-out tasks",
    ),
  seed: z.number().int().min(0).optional().describe("a one-seed study with this seed (same as --seeds N)"),
  heldOutSeed: z
    .number()
    .int()
    .min(0)
    .optional()
    .describe("seed of the held-out tasks, the same for every seed of the study (default 1)"),
  plan: z
    .string()
    .optional()
    .describe(
      "an analysis plan (JSON, as study.json's plan): fixed when the study starts; on --resume refused unless it is the study's own",
    ),
  base: z
    .string()
    .optional()
    .describe(
      "the base model: sft (demonstrations and SFT here; default), openai:MODEL (a served model, evaluated as served: no demonstrations, no SFT) or tinker (the Tinker trainer's --base-model as it is; default with --trainer tinker)",
    ),
  baseOpt: z
    .array(z.string())
    .default([])
    .describe(
      "openai base: sampling option KEY=VALUE, stored with the study (temperature, topP, maxTokens (default: the study's maxNewTokens), seed, seedScheme, extraBody, ...)",
    ),
  trainer: z
    .enum(TRAINER_KINDS)
    .default("tiny")
    .describe(
      "where the RL runs train: tiny (the in-process transformer, from the SFT base) or tinker (one training client per RL run on a Tinker service: --base-model, --tinker-url)",
    ),
  ...tinkerFlags,
  ...clientFlagFieldsFor("openai base"),
  ...tinkerReachFlags,
  out: z.string().min(1).default("study").describe("study folder: config, base model, RL runs, study.db, report.html"),
  resume: z
    .boolean()
    .default(false)
    .describe("continue the study in --out where it stopped (its stored config wins; give the servers' flags again)"),
  progress: z.boolean().default(true).describe("show progress bars on stderr"),
  viewUrl: viewUrlField.describe(
    "address of a running `budgetrl view` of the study folder: report.html's budget table links to its episodes (with --resume, the report is written again)",
  ),
});

type Options = z.output<typeof schema>;

/** --size KEY=VALUE pairs: preset fields only, values as JSON where they are JSON (the schema reads them). */
function sizeOverrides(pairs: readonly string[]): Partial<PresetSizes> {
  const values = keyJsonValues(pairs, "--size");
  for (const key of Object.keys(values)) {
    if (!(SIZE_FIELDS as readonly string[]).includes(key))
      throw new ConfigError(`--size ${key}`, "is not a preset field", `fields: ${SIZE_FIELDS.join(", ")}`);
  }
  return values as Partial<PresetSizes>;
}

function variantList(text: string | undefined): readonly VariantSlug[] | undefined {
  if (text === undefined) return undefined;
  const slugs = text
    .split(",")
    .map((slug) => slug.trim())
    .filter((slug) => slug !== "");
  for (const slug of slugs)
    if (!(VARIANT_SLUGS as readonly string[]).includes(slug))
      throw new ConfigError("--variants", `unknown RL run "${slug}"`, `use some of: ${VARIANT_SLUGS.join(", ")}`);
  return slugs as VariantSlug[];
}

/** The seeds the flags name: --seeds 1,2,3 or --seed N (not both); none: the preset's. */
function seedsOf(options: Options): { seeds?: readonly number[] } {
  if (options.seeds !== undefined && options.seed !== undefined)
    throw new ConfigError("--seed", "give --seeds or --seed, not both", "--seed N is --seeds N");
  if (options.seed !== undefined) return { seeds: [options.seed] };
  if (options.seeds === undefined) return {};
  const seeds = options.seeds.split(",").map((text) => text.trim());
  for (const text of seeds)
    if (!/^\d+$/.test(text))
      throw new ConfigError("--seeds", `"${text}" is not a seed (a whole number)`, "e.g. --seeds 1,2,3");
  return { seeds: seeds.map(Number) };
}

/** The analysis plan a --plan file holds (JSON), or undefined. */
function planOf(path: string | undefined): unknown {
  if (path === undefined) return undefined;
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    throw new ConfigError(
      "--plan",
      `cannot read ${path}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
    );
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new ConfigError("--plan", `${path} is not JSON: ${(error as Error).message}`);
  }
}

/** The trainer as data, its fields refused with the in-process trainer, naming the flag. */
function trainerOf(options: Options, given: ReadonlyMap<string, string>): TrainerSourceInput {
  if (options.trainer === "tiny") {
    const stray = Object.keys(tinkerFlags).find((key) => given.has(key));
    if (stray !== undefined)
      throw new ConfigError(
        given.get(stray) as string,
        "is read by --trainer tinker only",
        "the in-process trainer trains the SFT base made here",
      );
    return { kind: "tiny" };
  }
  if (options.baseModel === undefined)
    throw new ConfigError(
      "baseModel",
      "is required with --trainer tinker",
      "name the service's base model, e.g. --base-model Qwen/Qwen3-8B",
    );
  return {
    kind: "tinker",
    baseModel: options.baseModel,
    ...(options.loraRank === undefined ? {} : { loraRank: options.loraRank }),
    ...(options.renderer === undefined ? {} : { renderer: options.renderer }),
    templateOptions: keyJsonValues(options.templateOpt, "--template-opt") as Extract<
      TrainerSourceInput,
      { kind: "tinker" }
    >["templateOptions"],
    ...(options.toolCallFormat === undefined ? {} : { toolCallFormat: options.toolCallFormat }),
    ...(options.backendLoss === undefined ? {} : { backendLoss: options.backendLoss }),
    ...(options.contextLength === undefined ? {} : { contextLength: options.contextLength }),
  };
}

/** A new study's choice from the flags: the preset and sizes, the env's design, the model sources. */
function choiceOf(options: Options, given: ReadonlyMap<string, string>): StudyChoice {
  const variants = variantList(options.variants);
  if (options.base === undefined && options.baseOpt.length > 0)
    throw new ConfigError("baseOpt", "sampling options are for an openai: base", "name it with --base openai:MODEL");
  const baseOptions = parseBaseOptions(keyValues(options.baseOpt, "--base-opt"));
  return {
    preset: options.preset,
    ...(options.env === undefined ? {} : { env: options.env }),
    envOptions: keyValues(options.envOpt, "--env-opt"),
    ...(options.budget === undefined ? {} : { budgets: options.budget }),
    ...(options.budgetScope === undefined ? {} : { budgetScope: options.budgetScope }),
    ...(variants === undefined ? {} : { variants }),
    overrides: sizeOverrides(options.size),
    ...seedsOf(options),
    ...(options.heldOutSeed === undefined ? {} : { heldOutSeed: options.heldOutSeed }),
    trainer: trainerOf(options, given),
    ...(options.base === undefined ? {} : { base: parseBaseSource(options.base, baseOptions) }),
  };
}

/** Where the servers are, from the flags (and TINKER_BASE_URL): the openai base's client options as given, the
 * Tinker service. */
function reachOf(options: Options): StudyReach {
  const tinker = tinkerConnection(options);
  const openai = clientOptionsOf(options);
  return { ...(openai === undefined ? {} : { openai }), ...(tinker === undefined ? {} : { tinker }) };
}

/** Progress bars for the jobs of the running stage, one at a time, on stderr. */
function stageView(io: CliIo, enabled: boolean): StageEvents & { close(): void } {
  let bar: Progress | undefined;
  const close = (): void => {
    bar?.finish();
    bar = undefined;
  };
  return {
    job: (name, total, initial, unit) => {
      close();
      if (enabled)
        bar = createProgress({
          label: `  ${name}`,
          total,
          initial,
          unit,
          interactive: io.interactive,
          write: io.stderr,
        });
    },
    progress: (done) => bar?.update(done),
    note: (text) => io.stderr(`  ${text}\n`),
    close,
  };
}

export const reproduceCommand = defineCommand({
  name: "reproduce",
  summary: "Rerun the paper's study here: base models, the RL runs, the Pass@(K,T) grid, analyses and an HTML report.",
  description:
    "Stages: distinct held-out tasks per env (the same for every seed; on thin ice new in structure: no training map shares a held-out map's playable layout) -> ranges (the oracle and a random policy on them: what each statistic can show) -> per seed: demonstrations of a budget-aware noisy oracle at every budget, announced and hidden, and SFT on its optimal replies (the base model) -> RL runs from the same base with the same compute (GRPO-Full at the most generous budget and at the tightest, turn-level process supervision, BudgetMix over every budget, BudgetMix with hidden budgets) -> evaluation of every model on the held-out tasks (announced and hidden budgets, teacher-forced and recovery runs) -> report (report.html, report.json): each claim tested as the analysis plan fixed in study.json before any stage says, per seed, per half of the seeds (the replication split the plan fixed) and pooled over seeds (intervals over seeds and tasks, t with seeds - 1 degrees of freedom), with a sensitivity table. Budgets are multiples of each task's optimal length (1.25x, 1.5x, 2x, 3x; bfcl: 10-100% of upstream's 20 steps per user turn). Any model source: --base openai:MODEL --base-url URL evaluates a served base (no demonstrations, no SFT), --trainer tinker --base-model NAME --tinker-url URL trains each RL run as a LoRA on a Tinker service and samples its checkpoints there (docs/study.md). Interrupt with Ctrl-C and continue with --resume (the servers' flags given again).",
  schema,
  interruptible: true,
  examples: [
    "budgetrl reproduce --preset quick",
    "budgetrl reproduce --preset full --out runs/study",
    "budgetrl reproduce --preset full --seeds 1,2 --out runs/two-seeds",
    "budgetrl reproduce --preset full --env thinice --out runs/thinice",
    "budgetrl reproduce --out runs/study --resume",
    "budgetrl reproduce --env bfcl --base openai:Qwen/Qwen3-4B --base-url http://localhost:8000/v1 --trainer tinker --base-model Qwen/Qwen3-4B --tinker-url URL --renderer hf:models/qwen3-4b --template-opt enable_thinking=false --size maxNewTokens=256 --out runs/bfcl",
    "budgetrl reproduce --out runs/bfcl --resume --base-url http://localhost:8000/v1 --tinker-url URL",
  ],
  async run(options, io, context) {
    if (options.resume)
      reportIgnoredOnResume(io, "reproduce", context.given, [
        "out",
        "resume",
        "progress",
        "plan",
        "viewUrl",
        ...CLIENT_FLAG_KEYS,
        ...TINKER_FLAG_KEYS,
      ]);
    // A new study's choice is read (and refused, naming the flag) before any work; on resume the stored one wins.
    const study = options.resume ? undefined : choiceOf(options, context.given);
    const view = stageView(io, options.progress);
    let stageStart = performance.now();
    const plan = planOf(options.plan);
    const result = await reproduce({
      out: options.out,
      resume: options.resume,
      ...(plan === undefined ? {} : { plan }),
      ...(study === undefined ? {} : { study }),
      reach: reachOf(options),
      ...(options.viewUrl === undefined ? {} : { viewUrl: options.viewUrl }),
      signal: context.signal,
      events: view,
      onStage: (stage, status, summary) => {
        view.close();
        const index = `${STAGES.indexOf(stage) + 1}/${STAGES.length}`;
        if (status === "start") {
          stageStart = performance.now();
          io.stderr(`[${index}] ${stage}\n`);
        } else if (status === "skipped") io.stderr(`[${index}] ${stage}: done before, skipped\n`);
        else if (status === "omitted")
          io.stderr(`[${index}] ${stage}: skipped, ${summary ?? "not part of this study"}\n`);
        else
          io.stderr(
            `[${index}] ${stage}: ${summary ?? "done"} (${formatDuration((performance.now() - stageStart) / 1000)})\n`,
          );
      },
    });
    view.close();
    if (!result.finished) {
      io.stderr(
        `Stopped; what finished is kept in ${options.out}. Continue with: budgetrl reproduce --out ${shellWord(options.out)} --resume\n`,
      );
      return 130;
    }
    if (result.report !== undefined)
      io.stdout(
        `${[renderBudgetTables(result.report), renderStepQualityByBudget(result.report), renderFindings(result.report)].filter((text) => text !== "").join("\n\n")}\n\n`,
      );
    io.stdout(`report: ${result.reportPath} (data: ${result.reportPath.replace(/\.html$/, ".json")})\n`);
    return 0;
  },
});
