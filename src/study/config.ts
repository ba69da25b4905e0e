// The configuration of a study (`budgetrl reproduce`): the env, the seed, and the size of every stage (held-out
// tasks, demonstrations, SFT, the RL runs, the evaluation grid, the controlled runs). Two presets fill every
// field: `quick` (under 5 minutes on 2 cores; CI runs it) and `full` (under 45 minutes; what README quotes).
// A few fields can be overridden; the resolved config is stored in <out>/study.json, so `--resume` continues
// exactly the same study.
import { z } from "zod";
import { budgetListField, encodeConfig, integerListField, parseConfig } from "../core/config.js";
import { ConfigError } from "../core/errors.js";
import type { Json } from "../core/json.js";
import { envOptionsField } from "../eval/config.js";

export const STUDY_PRESETS = ["quick", "full"] as const;
export type StudyPreset = (typeof STUDY_PRESETS)[number];
export const STUDY_ENVS = ["sokoban", "frozenlake", "hanoi"] as const;

const count = (max: number) => z.number().int().min(1).max(max);

export const studyConfigSchema = z.object({
  preset: z.enum(STUDY_PRESETS).describe("study size: quick (minutes; CI) or full (what README quotes)"),
  env: z.enum(STUDY_ENVS).describe("environment of the study"),
  envOptions: envOptionsField,
  seed: z.number().int().min(0).describe("seed of every stage (tasks, demonstrations, initialisation, rollouts, bootstrap)"),
  model: z.record(z.string(), z.number()).describe("model config of the base model (layers, dModel, heads, hiddenSize, contextLength)"),
  heldOutTasks: count(100_000).describe("held-out tasks every model is evaluated on (never trained on)"),
  demoPolicy: z.string().describe("policy whose replies the base model imitates"),
  demoTasks: count(100_000).describe("demonstration tasks (never held-out ones)"),
  demoSamples: count(64).describe("demonstrations per task"),
  sftSteps: count(100_000).describe("SFT optimiser steps"),
  sftLearningRate: z.number().positive().describe("SFT peak learning rate"),
  rlSteps: count(100_000).describe("RL steps of every RL run (the same compute for each)"),
  tasksPerStep: count(4096).describe("fresh training tasks per RL step"),
  group: count(256).describe("rollouts per task (GRPO group size)"),
  rlLearningRate: z.number().positive().describe("RL peak learning rate"),
  maxNewTokens: count(256).describe("longest reply in tokens"),
  trainEvalEvery: z.number().int().min(0).describe("held-out evaluation every E RL steps (the training curves; 0: none)"),
  trainEvalTasks: count(100_000).describe("held-out tasks of the training curves (the first of the held-out list)"),
  samples: count(1024).describe("samples per (task, budget) in the evaluation grid"),
  ks: integerListField().describe("values of K of the Pass@(K,T) grid"),
  budgets: budgetListField().describe("budgets T of the evaluation grid"),
  teacherForcedSamples: z.number().int().min(0).max(1024).describe("samples per task of the teacher-forced runs (step quality on expert states; 0: none)"),
  perturbTurns: z.array(count(10_000)).describe("turns j at which the perturbation runs force one non-optimal action"),
  perturbSamples: z.number().int().min(0).max(1024).describe("samples per (task, budget) of the perturbation runs"),
  perturbBudgets: budgetListField().describe("budgets of the perturbation runs"),
  hiddenBudgetMix: z.boolean().describe("also train BudgetMix with hidden budgets (beyond the paper)"),
  bootstrap: z.number().int().min(0).max(100_000).describe("bootstrap resamples of the report's intervals"),
});

export type StudyConfig = z.output<typeof studyConfigSchema>;
export type StudyConfigInput = z.input<typeof studyConfigSchema>;

/** What a preset fixes besides the env (sizes that fit its time target). */
type PresetSizes = Omit<StudyConfigInput, "preset" | "env" | "envOptions" | "seed">;

const QUICK: PresetSizes = {
  model: { layers: 2, dModel: 64, heads: 4, hiddenSize: 172, contextLength: 128 },
  heldOutTasks: 40,
  demoPolicy: "noisy-oracle:0.5",
  demoTasks: 200,
  demoSamples: 2,
  sftSteps: 150,
  sftLearningRate: 3e-3,
  rlSteps: 20,
  tasksPerStep: 8,
  group: 8,
  rlLearningRate: 5e-4,
  maxNewTokens: 8,
  trainEvalEvery: 10,
  trainEvalTasks: 40,
  samples: 8,
  ks: "1,2,4,8",
  budgets: "25%,50%,75%,100%",
  teacherForcedSamples: 2,
  perturbTurns: [1, 2],
  perturbSamples: 4,
  perturbBudgets: "50%,100%",
  hiddenBudgetMix: true,
  bootstrap: 500,
};

/** The quick preset with more tasks, samples, steps and perturbations: the same model, learning rates and budgets. */
const FULL: PresetSizes = {
  ...QUICK,
  heldOutTasks: 200,
  demoTasks: 500,
  sftSteps: 400,
  rlSteps: 100,
  tasksPerStep: 16,
  trainEvalEvery: 20,
  trainEvalTasks: 100,
  samples: 16,
  ks: "1,2,4,8,16",
  teacherForcedSamples: 4,
  perturbTurns: [1, 2, 3],
  perturbSamples: 8,
  bootstrap: 1000,
};

export const PRESETS: Readonly<Record<StudyPreset, PresetSizes>> = { quick: QUICK, full: FULL };

/** Env options a study needs beyond the env's defaults: hanoi starts anywhere (a horizon dial within one env). */
const ENV_DEFAULTS: Readonly<Record<(typeof STUDY_ENVS)[number], Record<string, string | number | boolean>>> = {
  sokoban: {},
  frozenlake: {},
  hanoi: { disks: 4, randomStart: true },
};

export interface StudyChoice {
  readonly preset: StudyPreset;
  readonly env: (typeof STUDY_ENVS)[number];
  readonly envOptions?: Readonly<Record<string, string | number | boolean | null>>;
  readonly seed?: number;
  /** Fields of the preset to override (sizes), as a user would write them. */
  readonly overrides?: Partial<PresetSizes>;
}

/** The full config of a study from a preset, an env, and overrides; throws ConfigError naming a bad field. */
export function studyConfig(choice: StudyChoice): Readonly<StudyConfig> {
  return parseStudyConfig({
    ...PRESETS[choice.preset],
    ...choice.overrides,
    preset: choice.preset,
    env: choice.env,
    envOptions: { ...ENV_DEFAULTS[choice.env], ...choice.envOptions },
    seed: choice.seed ?? 1,
  });
}

/** Validate a study config; cross-field rules: K <= samples, perturbation samples <= samples (they pair with the
 * grid's episodes), the training curves' tasks among the held-out ones. */
export function parseStudyConfig(input: unknown): Readonly<StudyConfig> {
  const config = parseConfig(studyConfigSchema, input);
  if (Math.max(...config.ks) > config.samples) throw new ConfigError("ks", `K = ${Math.max(...config.ks)} is larger than the samples per task (${config.samples})`);
  if (config.perturbSamples > config.samples) throw new ConfigError("perturbSamples", `${config.perturbSamples} perturbation samples, but the grid has ${config.samples} to pair them with`);
  if (config.trainEvalTasks > config.heldOutTasks) throw new ConfigError("trainEvalTasks", `the training curves' ${config.trainEvalTasks} tasks must be among the ${config.heldOutTasks} held-out ones`);
  return config;
}

export function encodeStudyConfig(config: Readonly<StudyConfig>): Json {
  return encodeConfig(studyConfigSchema, config) as Json;
}
