// The configuration of an RL run, declared once: validated before any work starts (errors name the field),
// stored with the run, and compared on --resume so that a run only continues with the config it started with.
// The advantage estimators' options are fields declared by the estimators (advantages/registry.ts); configs stored
// before the turn-level weight had one name (`lambda` for turn, `stepWeight` for gigpo) read back to the same weight.
import { z } from "zod";
import { BUDGET_MODES, BUDGET_SCOPES } from "../core/budget.js";
import { budgetListField, encodeConfig, parseConfig } from "../core/config.js";
import { ConfigError } from "../core/errors.js";
import type { Json } from "../core/json.js";
import { envOptionsField } from "../eval/config.js";
import { modelConfigField } from "../nn/config.js";
import { DEFAULT_MAX_NEW_TOKENS } from "../policies/tiny/context.js";
import { ADVANTAGE_ESTIMATORS, advantageOptionFields, estimatorSummaries } from "./advantages/registry.js";
import { BACKEND_LOSSES } from "./backend.js";
import { budgetScheduleField } from "./schedules/schedule.js";
import { hfDirProblem, hfRendererDir } from "./tinker/hf-files.js";
import { templateOptionsField, toolCallFormatField } from "./tinker/hf-options.js";
import { rendererNameProblem } from "./tinker/renderer.js";
import { heldOutSetField } from "../eval/held-out-field.js";

/** Where the weights live: the in-process transformer, or a model on a Tinker server (src/rl/tinker/). */
export const TRAINER_BACKENDS = ["tiny", "tinker"] as const;

export const trainConfigSchema = z.object({
  env: z.string().min(1).describe("environment to train on"),
  envOptions: envOptionsField,
  init: z.string().optional().describe("checkpoint to start from (an SFT base); none: a fresh model"),
  modelConfig: modelConfigField().default({}).describe("model config overrides for a fresh model"),
  algo: z.enum(ADVANTAGE_ESTIMATORS).default("grpo").describe(`advantage estimator: ${estimatorSummaries()}`),
  budget: budgetScheduleField().prefault("fixed:100%").describe("budget schedule: fixed:T or budgetmix:T1,T2,... (+curriculum)"),
  budgetMode: z.enum(BUDGET_MODES).default("announced").describe("what the policy is told about its budget while training"),
  budgetScope: z.enum(BUDGET_SCOPES).default("episode").describe("what the budget counts: all turns, or the turns of each user turn (bfcl)"),
  tasksPerStep: z.number().int().min(1).default(16).describe("fresh tasks per step, distinct by content (one group each)"),
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
  // The estimators' options (reward, normalizeStd, gamma, turnWeight, normalizeStepStd), declared by the estimators.
  ...advantageOptionFields,
  maxNewTokens: z.number().int().min(1).default(DEFAULT_MAX_NEW_TOKENS).describe("longest reply in tokens"),
  evalEvery: z.number().int().min(0).default(20).describe("evaluate on the held-out tasks every E steps (0: never)"),
  evalTasks: z.number().int().min(1).default(50).describe("held-out tasks, distinct by content (never trained on)"),
  evalSeed: z.number().int().min(0).optional().describe("seed of the held-out task list (default: derived from --seed)"),
  excludeHeldOut: z.boolean().default(true).describe("never train on a held-out task (by content); off only for envs with too few distinct tasks (hanoi without randomStart)"),
  exclude: heldOutSetField().optional().describe("another held-out set never to train on, by content: SEED:TASKS (the first TASKS distinct tasks generated from SEED) or a held-out.json (or the study folder holding it) as budgetrl reproduce writes it (a study's evaluation tasks)"),
  evalSamples: z.number().int().min(1).default(4).describe("samples per held-out task and budget"),
  evalBudgets: budgetListField().prefault("25%,50%,100%").meta({ flag: "eval-budget" }).describe("budgets of the held-out evaluation, comma-separated"),
  checkpointEvery: z.number().int().min(1).default(20).describe("save a checkpoint every C steps"),
  backend: z.enum(TRAINER_BACKENDS).default("tiny").describe("where the weights live: tiny (the in-process transformer) or tinker (a Tinker server: --tinker-url, --base-model)"),
  baseModel: z.string().min(1).optional().describe("tinker: the base model to train a LoRA of, as the server names it"),
  loraRank: z.number().int().min(1).default(32).describe("tinker: LoRA rank"),
  contextLength: z.number().int().min(8).optional().describe("tinker: the model's context in tokens (default: the server's max_context_length)"),
  renderer: z
    .string()
    .default("bytes")
    .superRefine((name, context) => {
      const problem = rendererNameProblem(name);
      if (problem !== undefined) context.addIssue({ code: "custom", message: problem, input: name });
    })
    .describe("tinker: how conversations become tokens: bytes (budgetrl's byte tokenizer, for byte-level models like the stand-in's) or hf:DIR (a Hugging Face model's tokenizer.json and tokenizer_config.json in DIR, copied locally)"),
  groupSampling: z.boolean().default(true).describe("tinker: a group's first turn in one sampling request (num_samples = --group, the prompt prefilled once); off: one request per episode, seeded as the in-process policy (the same samples as --backend tiny on the same weights)"),
  templateOptions: templateOptionsField,
  toolCallFormat: toolCallFormatField,
  backendLoss: z.enum(["none", ...BACKEND_LOSSES]).default("none").describe("none: the loss as per-token coefficients (any backend, KL included); ppo or importance_sampling: the tinker server's own loss, one pass per minibatch, no KL"),
});

export type TrainConfig = z.output<typeof trainConfigSchema>;

export function parseTrainConfig(input: unknown): Readonly<TrainConfig> {
  const config = parseConfig(trainConfigSchema, withTurnWeight(input));
  checkBackendFields(config);
  return config;
}

/** The older names of `turnWeight`, each with the estimator that read it (configs stored before it, library calls). */
export const OLDER_WEIGHT_NAMES = { lambda: "turn", stepWeight: "gigpo" } as const;

/** A config input with the older weight names read into `turnWeight`: the one the config's estimator read (the other
 * was never read, and is dropped); refused next to `turnWeight`. */
function withTurnWeight(input: unknown): unknown {
  if (input === null || typeof input !== "object" || Array.isArray(input)) return input;
  const { lambda, stepWeight, ...rest } = input as Record<string, unknown>;
  if (lambda === undefined && stepWeight === undefined) return input;
  const older = lambda === undefined ? "stepWeight" : "lambda";
  if (rest.turnWeight !== undefined) throw new ConfigError(older, "is the older name of turnWeight, which is given too", "give turnWeight (--turn-weight) only");
  const read = rest.algo === OLDER_WEIGHT_NAMES.lambda ? lambda : rest.algo === OLDER_WEIGHT_NAMES.stepWeight ? stepWeight : undefined;
  return read === undefined ? rest : { ...rest, turnWeight: read };
}

/** The fields that only one backend reads are refused with the other, before any work. */
function checkBackendFields(config: Readonly<TrainConfig>): void {
  if (config.backend === "tiny") {
    if (config.baseModel !== undefined) throw new ConfigError("baseModel", "is read by --backend tinker only", "the in-process model starts from --init or a fresh --model config");
    if (config.contextLength !== undefined) throw new ConfigError("contextLength", "is read by --backend tinker only", "the in-process model's context is --model contextLength=N");
    if (config.backendLoss !== "none") throw new ConfigError("backendLoss", "the in-process backend computes the loss from coefficients", "leave --backend-loss at none, or use --backend tinker");
    if (config.renderer !== "bytes") throw new ConfigError("renderer", "is read by --backend tinker only", "the in-process model reads bytes: drop --renderer");
    if (!config.groupSampling) throw new ConfigError("groupSampling", "is read by --backend tinker only", "the in-process model samples every episode alone: drop --no-group-sampling");
    checkHfOnlyFields(config);
    return;
  }
  if (config.baseModel === undefined) throw new ConfigError("baseModel", "is required with --backend tinker", "name the server's base model, e.g. --base-model Qwen/Qwen3-8B");
  if (config.init !== undefined) throw new ConfigError("init", "is an in-process checkpoint; a tinker run starts from --base-model", "drop --init");
  if (Object.keys(config.modelConfig).length > 0) throw new ConfigError("modelConfig", "configures the in-process model; a tinker run trains --base-model", "drop --model");
  const hfDir = hfRendererDir(config.renderer);
  const hfProblem = hfDir === undefined ? undefined : hfDirProblem(hfDir);
  if (hfProblem !== undefined) throw new ConfigError("renderer", hfProblem, "DIR must hold the model's tokenizer.json and tokenizer_config.json, copied from its repository (nothing downloads)");
  if (hfDir === undefined) checkHfOnlyFields(config);
  if (config.backendLoss !== "none" && config.kl > 0) throw new ConfigError("backendLoss", `the server's ${config.backendLoss} loss has no KL term`, "use --kl 0, or --backend-loss none (the KL then enters the coefficients)");
}

/** The options of the hf renderer are refused with any other renderer (the bytes renderer has no template). */
function checkHfOnlyFields(config: Readonly<TrainConfig>): void {
  if (Object.keys(config.templateOptions).length > 0) throw new ConfigError("templateOptions", "is read by --renderer hf:DIR only", "the bytes renderer has no chat template: drop --template-opt");
  if (config.toolCallFormat !== "auto") throw new ConfigError("toolCallFormat", "is read by --renderer hf:DIR only", "the bytes renderer reads replies as text: drop --tool-call-format");
}

/** The stored (JSON) form of a train config: the schedule and budgets as written. */
export function encodeTrainConfig(config: Readonly<TrainConfig>): Json {
  return encodeConfig(trainConfigSchema, config) as Json;
}
