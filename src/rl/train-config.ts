// The configuration of an RL run, declared once: validated before any work starts (errors name the field),
// stored with the run, and compared on --resume so that a run only continues with the config it started with.
import { z } from "zod";
import { BUDGET_MODES, BUDGET_SCOPES } from "../core/budget.js";
import { budgetListField, encodeConfig, parseConfig } from "../core/config.js";
import type { Json } from "../core/json.js";
import { envOptionsField } from "../eval/config.js";
import { DEFAULT_HISTORY, DEFAULT_MAX_NEW_TOKENS, HISTORIES } from "../policies/tiny/context.js";
import { ADVANTAGE_ESTIMATORS } from "./advantages/index.js";
import { TRAJECTORY_REWARDS } from "./advantages/types.js";
import { budgetScheduleField } from "./schedules/schedule.js";

export const trainConfigSchema = z.object({
  env: z.string().min(1).describe("environment to train on"),
  envOptions: envOptionsField,
  init: z.string().optional().describe("checkpoint to start from (an SFT base); none: a fresh model"),
  modelConfig: z.record(z.string(), z.number()).default({}).describe("model config overrides for a fresh model"),
  algo: z.enum(ADVANTAGE_ESTIMATORS).default("grpo").describe("advantage estimator: grpo (GRPO-Full), turn (process supervision), gigpo"),
  budget: budgetScheduleField().prefault("fixed:100%").describe("budget schedule: fixed:T or budgetmix:T1,T2,... (+curriculum)"),
  budgetMode: z.enum(BUDGET_MODES).default("announced").describe("what the policy is told about its budget while training"),
  budgetScope: z.enum(BUDGET_SCOPES).default("episode").describe("what the budget counts: all turns, or the turns of each user turn (bfcl)"),
  tasksPerStep: z.number().int().min(1).default(16).describe("fresh tasks per step (one group each)"),
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
  reward: z.enum(TRAJECTORY_REWARDS).default("return").describe("trajectory reward: env return or 1/0 success"),
  normalizeStd: z.boolean().default(true).describe("divide group advantages by their std"),
  lambda: z.number().min(0).default(1).describe("turn: weight of the turn-level advantage"),
  gamma: z.number().min(0).max(1).default(0.95).describe("turn, gigpo: discount over turns"),
  stepWeight: z.number().min(0).default(1).describe("gigpo: weight of the step-level advantage"),
  maxNewTokens: z.number().int().min(1).default(DEFAULT_MAX_NEW_TOKENS).describe("longest reply in tokens"),
  history: z.enum(HISTORIES).default(DEFAULT_HISTORY).describe("what the policy sees of an episode: segments (KV cache kept across turns) or window (re-rendered each turn)"),
  evalEvery: z.number().int().min(0).default(20).describe("evaluate on the held-out tasks every E steps (0: never)"),
  evalTasks: z.number().int().min(1).default(50).describe("held-out tasks (never trained on)"),
  evalSeed: z.number().int().min(0).optional().describe("seed of the held-out task list (default: derived from --seed)"),
  excludeHeldOut: z.boolean().default(true).describe("never train on a held-out task (by content); off only for envs with too few distinct tasks (hanoi without randomStart)"),
  exclude: z
    .object({ seed: z.number().int().min(0), tasks: z.number().int().min(1).max(1_000_000) })
    .optional()
    .describe("another held-out set never to train on: the tasks generated from this seed and count (a study's evaluation tasks)"),
  evalSamples: z.number().int().min(1).default(4).describe("samples per held-out task and budget"),
  evalBudgets: budgetListField().prefault("25%,50%,100%").meta({ flag: "eval-budget" }).describe("budgets of the held-out evaluation, comma-separated"),
  checkpointEvery: z.number().int().min(1).default(20).describe("save a checkpoint every C steps"),
});

export type TrainConfig = z.output<typeof trainConfigSchema>;

export function parseTrainConfig(input: unknown): Readonly<TrainConfig> {
  return parseConfig(trainConfigSchema, input);
}

/** The stored (JSON) form of a train config: the schedule and budgets as written. */
export function encodeTrainConfig(config: Readonly<TrainConfig>): Json {
  return encodeConfig(trainConfigSchema, config) as Json;
}
