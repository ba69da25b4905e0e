// The configuration of an RL run, declared once: validated before any work starts (errors name the field),
// stored with the run, and compared on --resume so that a run only continues with the config it started with.
// Two discriminated unions hold what only one backend or one estimator reads:
//   backend  { kind: "tiny", init?, modelConfig } | { kind: "tinker", baseModel, loraRank, contextLength?, renderer,
//            groupSampling, templateOptions, toolCallFormat, backendLoss }
//   algo     { name: "grpo" | "turn" | "gigpo", ...that estimator's options } (advantages/registry.ts)
// Each branch is strict: the other backend's (or estimator's) field is refused by the schema, naming it. The
// command line stays flat (--backend tinker --base-model X --algo gigpo --turn-weight 2): `budgetrl train` builds
// this nested config from its flags (cli/train.ts). Stored configs are in this nested form; a run stored in the older
// flat form (before the unions, or before `turnWeight`: `lambda` for turn, `stepWeight` for gigpo) is read by
// `readStoredTrainConfig`, the one place that decodes it.
import { z } from "zod";
import { BUDGET_MODES, BUDGET_SCOPES } from "../core/budget.js";
import { budgetListField, encodeConfig, parseConfig, type FieldNamer } from "../core/config.js";
import { ConfigError } from "../core/errors.js";
import type { Json } from "../core/json.js";
import { envOptionsField } from "../eval/config.js";
import { envReferenceField } from "../envs/registry.js";
import { modelConfigField } from "../nn/config.js";
import { DEFAULT_MAX_NEW_TOKENS } from "../policies/tiny/context.js";
import {
  ADVANTAGE_ESTIMATORS,
  advantageEstimator,
  advantageOptionFields,
  algoConfigSchema,
  type AdvantageEstimatorName,
} from "./advantages/registry.js";
import { BACKEND_LOSSES } from "./backend.js";
import { budgetScheduleField } from "./schedules/schedule.js";
import { hfDirProblem, hfRendererDir } from "../policies/renderers/hf-files.js";
import { templateOptionsField, toolCallFormatField } from "../policies/renderers/hf-options.js";
import { rendererNameField } from "../policies/renderers/renderer-names.js";
import { heldOutSetField } from "../eval/held-out-field.js";
import { DEFAULT_GROUP_SAMPLING } from "../tinker/policy.js";
import { TASK_DISTINCTIONS } from "../agent/task-draws.js";

/** Where the weights live: the in-process transformer, or a model on a Tinker server (src/rl/backends/tinker/). */
export const TRAINER_BACKENDS = ["tiny", "tinker"] as const;
export type TrainerBackendKind = (typeof TRAINER_BACKENDS)[number];

/** What only the in-process transformer reads. */
export const tinyBackendFields = {
  init: z.string().optional().describe("tiny: checkpoint to start from (an SFT base); none: a fresh model"),
  modelConfig: modelConfigField().default({}).describe("tiny: model config overrides for a fresh model"),
};

/** What only a model on a Tinker server reads. */
export const tinkerBackendFields = {
  baseModel: z
    .string()
    .min(1)
    .describe("tinker: the base model to train a LoRA of, as the server names it (e.g. Qwen/Qwen3-8B)"),
  loraRank: z.number().int().min(1).default(32).describe("tinker: LoRA rank"),
  contextLength: z
    .number()
    .int()
    .min(8)
    .optional()
    .describe("tinker: the model's context in tokens (default: the server's max_context_length)"),
  renderer: rendererNameField(
    "tinker: how conversations become tokens: bytes (budgetrl's byte tokenizer, for byte-level models like the stand-in's) or hf:DIR (a Hugging Face model's tokenizer.json and tokenizer_config.json in DIR, copied locally)",
  ),
  groupSampling: z
    .boolean()
    .default(DEFAULT_GROUP_SAMPLING)
    .describe(
      "tinker: a group's first turn in one sampling request (num_samples = --group, the prompt prefilled once); off: one request per episode, seeded as the in-process policy (the same samples as --backend tiny on the same weights)",
    ),
  templateOptions: templateOptionsField,
  toolCallFormat: toolCallFormatField,
  backendLoss: z
    .enum(["none", ...BACKEND_LOSSES])
    .default("none")
    .describe(
      "tinker: none (the loss as per-token coefficients, KL included) or the server's own ppo or importance_sampling loss (one pass per minibatch, no KL)",
    ),
};

function unreadField(kind: TrainerBackendKind): (issue: z.core.$ZodRawIssue) => string | undefined {
  return (issue) => (issue.code === "unrecognized_keys" ? `is not read by --backend ${kind}` : undefined);
}

/** Where the weights live and what that backend reads: one strict branch per backend. */
export const backendConfigSchema = z
  .discriminatedUnion("kind", [
    z.strictObject({ kind: z.literal("tiny"), ...tinyBackendFields }, { error: unreadField("tiny") }),
    z.strictObject({ kind: z.literal("tinker"), ...tinkerBackendFields }, { error: unreadField("tinker") }),
  ])
  .prefault({ kind: "tiny" })
  .describe(
    "where the weights live: tiny (the in-process transformer) or tinker (a Tinker server: --tinker-url, --base-model)",
  );
export type BackendConfig = z.output<typeof backendConfigSchema>;
export type TinyBackendConfig = Extract<BackendConfig, { kind: "tiny" }>;
export type TinkerBackendConfig = Extract<BackendConfig, { kind: "tinker" }>;

export const trainConfigSchema = z.strictObject({
  env: envReferenceField("environment to train on: a registry name, or openenv:URL (an OpenEnv server's env)"),
  envOptions: envOptionsField,
  backend: backendConfigSchema,
  algo: algoConfigSchema,
  budget: budgetScheduleField()
    .prefault("fixed:100%")
    .describe("budget schedule: fixed:T or budgetmix:T1,T2,... (+curriculum)"),
  budgetMode: z
    .enum(BUDGET_MODES)
    .default("announced")
    .describe("what the policy is told about its budget while training"),
  budgetScope: z
    .enum(BUDGET_SCOPES)
    .default("episode")
    .describe("what the budget counts: all turns, or the turns of each user turn (bfcl)"),
  tasksPerStep: z
    .number()
    .int()
    .min(1)
    .default(16)
    .describe("fresh tasks per step, distinct by content (one group each)"),
  group: z.number().int().min(1).default(8).describe("rollouts per task (group size)"),
  steps: z.number().int().min(1).default(200).describe("training steps"),
  seed: z.number().int().min(0).default(1).describe("seed of tasks, rollouts, budgets and minibatches"),
  learningRate: z.number().positive().default(1e-4).describe("peak learning rate (warm-up then cosine decay)"),
  warmupSteps: z.number().int().min(0).default(5).describe("learning-rate warm-up steps"),
  epochs: z.number().int().min(1).default(1).describe("passes over each step's batch"),
  minibatches: z.number().int().min(1).default(1).describe("optimiser updates per epoch"),
  clipLow: z.number().min(0).max(1).default(0.2).describe("lower clip of the importance ratio"),
  clipHigh: z.number().min(0).default(0.28).describe("upper clip of the importance ratio"),
  kl: z.number().min(0).default(0).describe("KL coefficient beta to the initial model (k3 estimator)"),
  maxNewTokens: z.number().int().min(1).default(DEFAULT_MAX_NEW_TOKENS).describe("longest reply in tokens"),
  evalEvery: z.number().int().min(0).default(20).describe("evaluate on the held-out tasks every E steps (0: never)"),
  evalTasks: z.number().int().min(1).default(50).describe("held-out tasks, distinct by content (never trained on)"),
  evalDistinct: z
    .enum(TASK_DISTINCTIONS)
    .default("content")
    .describe(
      "what the held-out tasks are distinct in: content, or structure (the first evalTasks tasks of the eval seed's structure-distinct list, eval --distinct structure; training then never draws a task of their structures)",
    ),
  evalSeed: z
    .number()
    .int()
    .min(0)
    .optional()
    .describe("seed of the held-out task list (default: derived from --seed)"),
  excludeHeldOut: z
    .boolean()
    .default(true)
    .describe(
      "never train on a held-out task (or, with evalDistinct structure, on a task of a held-out structure); off only for envs with too few distinct tasks (hanoi without randomStart)",
    ),
  exclude: heldOutSetField()
    .optional()
    .describe(
      "another held-out set never to train on: SEED:TASKS (the first TASKS distinct tasks generated from SEED, by content), SEED:TASKS:structure (the first TASKS tasks of distinct structures, and every task of their structures) or a held-out.json (or the study folder holding it) as budgetrl reproduce writes it (a study's evaluation tasks)",
    ),
  evalSamples: z.number().int().min(1).default(4).describe("samples per held-out task and budget"),
  evalBudgets: budgetListField()
    .prefault("25%,50%,100%")
    .meta({ flag: "eval-budget" })
    .describe("budgets of the held-out evaluation, comma-separated"),
  checkpointEvery: z.number().int().min(1).default(20).describe("save a checkpoint every C steps"),
});

export type TrainConfig = z.output<typeof trainConfigSchema>;
/** A train config as a library caller writes it (defaults optional, budgets as text). */
export type TrainConfigInput = z.input<typeof trainConfigSchema>;

/** A train config (the nested form); `name` names a field in errors (the command line names flags). */
export function parseTrainConfig(input: unknown, name?: FieldNamer): Readonly<TrainConfig> {
  refuseFlatForm(input);
  const config =
    name === undefined ? parseConfig(trainConfigSchema, input) : parseConfig(trainConfigSchema, input, name);
  checkBackendFields(config, name ?? ((path) => path.join(".")));
  return config;
}

/** The config.json of a run, in the nested form or the older flat one (decoded here, the one place that reads it). */
export function readStoredTrainConfig(stored: unknown): Readonly<TrainConfig> {
  return parseTrainConfig(flatFormFields(stored).length > 0 ? fromFlatForm(stored as Record<string, unknown>) : stored);
}

/** The older names of `turnWeight`, each with the estimator that read it (flat configs stored before it). */
export const OLDER_WEIGHT_NAMES = { lambda: "turn", stepWeight: "gigpo" } as const;

const BACKEND_KEYS = new Set([...Object.keys(tinyBackendFields), ...Object.keys(tinkerBackendFields)]);
const OPTION_KEYS = new Set(Object.keys(advantageOptionFields));

/** The fields of `input` that the flat form had at the top level (a backend or an estimator as a name, their fields). */
function flatFormFields(input: unknown): string[] {
  if (input === null || typeof input !== "object" || Array.isArray(input)) return [];
  const record = input as Record<string, unknown>;
  return Object.keys(record).filter(
    (key) =>
      ((key === "backend" || key === "algo") && typeof record[key] === "string") ||
      BACKEND_KEYS.has(key) ||
      OPTION_KEYS.has(key) ||
      key in OLDER_WEIGHT_NAMES,
  );
}

function refuseFlatForm(input: unknown): void {
  const flat = flatFormFields(input)[0];
  if (flat === undefined) return;
  const where =
    OPTION_KEYS.has(flat) || flat === "algo" || flat in OLDER_WEIGHT_NAMES
      ? `algo: { name: "gigpo", turnWeight: 2, ... }`
      : flat in tinyBackendFields
        ? `backend: { kind: "tiny", ${flat}: ... }`
        : `backend: { kind: "tinker", baseModel: "...", ... }`;
  throw new ConfigError(
    flat,
    "is a field of the older flat train config",
    `nest the backend's and the estimator's fields: ${where} (docs/training.md); a stored run's config.json reads back with readStoredTrainConfig`,
  );
}

/** A config stored in the flat form, nested: the fields its backend and its estimator read go to `backend` and
 * `algo`; the ones they never read (the flat form stored every field, defaults included) are dropped. */
function fromFlatForm(flat: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const { backend = "tiny", algo = "grpo", ...rest } = flat;
  const backendShape: Record<string, unknown> = backend === "tinker" ? tinkerBackendFields : tinyBackendFields;
  const estimator = (ADVANTAGE_ESTIMATORS as readonly unknown[]).includes(algo)
    ? advantageEstimator(algo as AdvantageEstimatorName)
    : undefined;
  const optionShape: Record<string, unknown> = estimator?.options ?? {};
  const config: Record<string, unknown> = {};
  const backendFields: Record<string, unknown> = { kind: backend };
  const algoFields: Record<string, unknown> = { name: algo };
  for (const [key, value] of Object.entries(rest)) {
    if (BACKEND_KEYS.has(key)) {
      if (key in backendShape) backendFields[key] = value;
    } else if (OPTION_KEYS.has(key) || key in OLDER_WEIGHT_NAMES) {
      if (key in optionShape || key in OLDER_WEIGHT_NAMES) algoFields[key] = value;
    } else config[key] = value;
  }
  return { ...config, backend: backendFields, algo: withTurnWeight(algoFields) };
}

/** A stored estimator's options with the older weight name its estimator read moved into `turnWeight` (refused
 * next to `turnWeight`); the other name, which the flat form stored too, is dropped. */
function withTurnWeight(fields: Record<string, unknown>): Record<string, unknown> {
  const { lambda, stepWeight, ...rest } = fields;
  if (lambda === undefined && stepWeight === undefined) return fields;
  if (rest.turnWeight !== undefined)
    throw new ConfigError(
      lambda === undefined ? "stepWeight" : "lambda",
      "is the older name of turnWeight, which is given too",
      "keep turnWeight only",
    );
  const weight =
    rest.name === OLDER_WEIGHT_NAMES.lambda
      ? lambda
      : rest.name === OLDER_WEIGHT_NAMES.stepWeight
        ? stepWeight
        : undefined;
  return { ...rest, ...(weight === undefined ? {} : { turnWeight: weight }) };
}

/** What the schema cannot say: an hf:DIR renderer's files, the hf renderer's options with another renderer, and the
 * server's own loss (no KL term) with a KL coefficient. */
function checkBackendFields(config: Readonly<TrainConfig>, name: FieldNamer): void {
  const backend = config.backend;
  if (backend.kind === "tiny") return;
  const hfDir = hfRendererDir(backend.renderer);
  const hfProblem = hfDir === undefined ? undefined : hfDirProblem(hfDir);
  if (hfProblem !== undefined)
    throw new ConfigError(
      name(["backend", "renderer"]),
      hfProblem,
      "DIR must hold the model's tokenizer.json and tokenizer_config.json, copied from its repository (nothing downloads)",
    );
  if (hfDir === undefined) {
    if (Object.keys(backend.templateOptions).length > 0)
      throw new ConfigError(
        name(["backend", "templateOptions"]),
        "is read by --renderer hf:DIR only",
        "the bytes renderer has no chat template: drop --template-opt",
      );
    if (backend.toolCallFormat !== "auto")
      throw new ConfigError(
        name(["backend", "toolCallFormat"]),
        "is read by --renderer hf:DIR only",
        "the bytes renderer reads replies as text: drop --tool-call-format",
      );
  }
  if (backend.backendLoss !== "none" && config.kl > 0)
    throw new ConfigError(
      name(["backend", "backendLoss"]),
      `the server's ${backend.backendLoss} loss has no KL term`,
      "use --kl 0, or --backend-loss none (the KL then enters the coefficients)",
    );
}

/** The stored (JSON) form of a train config: the nested form, the schedule and budgets as written. */
export function encodeTrainConfig(config: Readonly<TrainConfig>): Json {
  return encodeConfig(trainConfigSchema, config) as Json;
}
