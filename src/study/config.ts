// The configuration of a study (`budgetrl reproduce`): its envs, its seeds, the analysis plan, and the size of every
// stage (held-out tasks, demonstrations, SFT, the RL runs, the evaluation grid, the controlled runs). A study's design
// is data: each env has its budgets (multiples of each task's optimal length, so tasks of different lengths get the
// same slack), the RL variants trained on it and what its held-out tasks differ in from its training tasks (their
// structure where the env has enough structures for that, else their content); the analysis plan
// (report/analysis-plan.ts) says which claim is tested on which envs, how, and with what margin, and is fixed here,
// before any data. Each seed replicates the whole pipeline (demonstrations, base, RL runs, evaluations) on the same
// held-out tasks (drawn from `heldOutSeed`, whatever the seeds). Two presets fill every field: `quick` (one seed,
// under 5 minutes on 2 cores; CI runs it) and `full` (six seeds, under 45 minutes; what README quotes). Sizes can be
// overridden; the resolved config is stored in <out>/study.json, so `--resume` continues exactly the same study.
// Where the models come from (`base`: SFT here, a served model, a Tinker service's base model) and where RL trains
// (`trainer`: in-process, or a Tinker service) are part of the config too (sources.ts).
import { z } from "zod";
import { BUDGET_SCOPES, budgetSize } from "../core/budget.js";
import { budgetListField, encodeConfig, integerListField, parseConfig } from "../core/config.js";
import { policySpecField } from "../core/policy-spec.js";
import { ConfigError } from "../core/errors.js";
import type { Json } from "../core/json.js";
import { envOptionsField } from "../eval/config.js";
import { modelConfigField } from "../nn/config.js";
import {
  analysisPlanSchema,
  checkAnalysisPlan,
  defaultAnalysisPlan,
  parseAnalysisPlan,
  type AnalysisPlan,
  type PlanEnv,
} from "../report/analysis-plan.js";
import {
  baseSamplingOptions,
  baseSourceSchema,
  checkSources,
  trainerSourceSchema,
  type BaseChoice,
  type BaseSource,
  type TrainerSourceInput,
} from "./sources.js";

export const STUDY_PRESETS = ["quick", "full"] as const;
export type StudyPreset = (typeof STUDY_PRESETS)[number];
export const STUDY_ENVS = ["vault", "thinice", "hanoi", "frozenlake", "sokoban", "bfcl"] as const;
export type StudyEnvName = (typeof STUDY_ENVS)[number];

/** The RL runs a study can train from an env's base model (plan.ts says what each one is). */
export const VARIANT_SLUGS = ["grpo-full", "grpo-tight", "turn-level", "budgetmix", "budgetmix-hidden"] as const;
export type VariantSlug = (typeof VARIANT_SLUGS)[number];

const count = (max: number) => z.number().int().min(1).max(max);

/** What held-out tasks differ in from the demonstration and RL tasks: their structure (what makes two tasks the same
 * problem: env.tasks.structureKey), or only their content. */
export const HELD_OUT_KINDS = ["structure", "content"] as const;
export type HeldOutKind = (typeof HELD_OUT_KINDS)[number];

/** One env of a study: what is trained and evaluated on it. */
export const studyEnvSchema = z.object({
  env: z.enum(STUDY_ENVS).describe("environment"),
  envOptions: envOptionsField,
  heldOut: z
    .enum(HELD_OUT_KINDS)
    .default("content")
    .describe(
      "what held-out tasks differ in from every demonstration and RL task: structure (new problems: no training task shares a held-out task's structure) or content",
    ),
  budgets: budgetListField().describe(
    "budgets T of the evaluation grid, demonstrations and RL (the tightest and the most generous set the fixed-budget RL runs)",
  ),
  budgetScope: z
    .enum(BUDGET_SCOPES)
    .default("episode")
    .describe("what a budget counts: every turn of the episode, or the turns of each user turn (bfcl)"),
  variants: z.array(z.enum(VARIANT_SLUGS)).describe("RL runs trained from this env's base model"),
});
export type StudyEnv = z.output<typeof studyEnvSchema>;

export const studyConfigSchema = z.object({
  preset: z.enum(STUDY_PRESETS).describe("study size: quick (minutes; CI) or full (what README quotes)"),
  envs: z.array(studyEnvSchema).min(1).describe("the envs of the study, each with its budgets and RL runs"),
  seeds: z
    .array(z.number().int().min(0))
    .min(1)
    .describe(
      "the study's seeds: each replicates the whole pipeline (demonstrations, base, RL runs, evaluations) on the same held-out tasks",
    ),
  heldOutSeed: z
    .number()
    .int()
    .min(0)
    .default(1)
    .describe("seed of the held-out tasks and their evaluation episodes, the same for every seed of the study"),
  plan: analysisPlanSchema.describe("the analysis plan: how each claim is tested, fixed before any data"),
  model: modelConfigField().describe(
    "model config of the base models (layers, dModel, heads, hiddenSize, contextLength)",
  ),
  heldOutTasks: count(100_000).describe(
    "distinct held-out tasks every model is evaluated on (never trained on), per env",
  ),
  demoPolicy: policySpecField().describe(
    "policy whose states the base model learns from (a budget-aware noisy oracle)",
  ),
  demoTasks: count(100_000).describe(
    "demonstration tasks (never held-out ones), each demonstrated at every budget in both modes",
  ),
  demoSamples: count(64).describe("demonstrations per task, budget and mode"),
  sftSteps: count(100_000).describe("SFT optimiser steps"),
  sftLearningRate: z.number().positive().describe("SFT peak learning rate"),
  rlSteps: count(100_000).describe("RL steps of every RL run (the same compute for each)"),
  tasksPerStep: count(4096).describe("fresh training tasks per RL step"),
  group: count(256).describe("rollouts per task (GRPO group size)"),
  rlLearningRate: z.number().positive().describe("RL peak learning rate"),
  maxNewTokens: count(32_768).describe("longest reply in tokens (a real LLM's replies need hundreds)"),
  trainEvalEvery: z
    .number()
    .int()
    .min(0)
    .describe("held-out evaluation every E RL steps (the training curves; 0: none)"),
  trainEvalTasks: count(100_000).describe("held-out tasks of the training curves (the first of the held-out list)"),
  samples: count(1024).describe("samples per (task, budget) in the evaluation grid"),
  ks: integerListField().describe("values of K of the Pass@(K,T) grid"),
  teacherForcedSamples: z
    .number()
    .int()
    .min(0)
    .max(1024)
    .describe("samples per (task, budget, mode) of the teacher-forced runs (step quality on expert states; 0: none)"),
  perturbTurns: z
    .array(count(10_000))
    .describe("turns j at which the recovery runs force one non-optimal action after the expert's turns"),
  perturbSamples: z.number().int().min(0).max(1024).describe("samples per (task, budget) of the recovery runs"),
  bootstrap: z.number().int().min(0).max(100_000).describe("bootstrap resamples of the report's intervals"),
  base: baseSourceSchema
    .default({ kind: "sft" })
    .describe(
      "where each env's base model comes from: sft (demonstrations and SFT here), openai (a served model), tinker (the Tinker trainer's base model)",
    ),
  trainer: trainerSourceSchema
    .default({ kind: "tiny" })
    .describe("where the RL runs train: tiny (in-process) or tinker (a Tinker service)"),
});

export type StudyConfig = z.output<typeof studyConfigSchema>;
export type StudyConfigInput = z.input<typeof studyConfigSchema>;

/** What a preset fixes besides the envs, the seed and the model sources (sizes that fit its time target). */
export type PresetSizes = Omit<
  StudyConfigInput,
  "preset" | "envs" | "seeds" | "heldOutSeed" | "plan" | "base" | "trainer"
>;

const NOT_SIZES = ["preset", "envs", "seeds", "heldOutSeed", "plan", "base", "trainer"];

/** The fields a preset fixes, which `--size KEY=VALUE` overrides. */
export const SIZE_FIELDS = Object.keys(studyConfigSchema.shape).filter(
  (key) => !NOT_SIZES.includes(key),
) as (keyof PresetSizes)[];

/** Slack over each task's optimum: 1.25x leaves a turn or two to spare, 3x room for the long safe plays. */
const STUDY_BUDGETS = "1.25x,1.5x,2x,3x";
const EVERY_VARIANT: readonly VariantSlug[] = VARIANT_SLUGS;
/** The RL runs the findings compare (GRPO-Full@tightest takes part in none: a one-env study, or `envs`, adds it). */
const COMPARED_VARIANTS: readonly VariantSlug[] = ["grpo-full", "turn-level", "budgetmix", "budgetmix-hidden"];

/** The two envs of the default design, both with a budget trade-off, so every claim is tested on both (the plan's
 * ranges leave out what cannot move on one): vault (information against time; the RL runs the claims compare, the hidden-budget
 * question too, all but GRPO-Full@1.25x, which no claim compares; held-out tasks new in content only: its small vaults have one or a few structures) and thin ice (risk
 * against time, lengths 2-10, a wrong move costs turns that slack can buy back; GRPO-Full, turn-level and BudgetMix;
 * held-out maps new in structure: none shares its playable layout with a training map). */
const TRADE_OFF_ENV: z.input<typeof studyEnvSchema> = {
  env: "vault",
  envOptions: {},
  heldOut: "content",
  budgets: STUDY_BUDGETS,
  variants: [...COMPARED_VARIANTS],
};
const HORIZON_ENV: z.input<typeof studyEnvSchema> = {
  env: "thinice",
  envOptions: {},
  heldOut: "structure",
  budgets: STUDY_BUDGETS,
  variants: ["grpo-full", "turn-level", "budgetmix"],
};

const QUICK: PresetSizes = {
  model: { layers: 2, dModel: 64, heads: 4, hiddenSize: 172, contextLength: 128 },
  heldOutTasks: 40,
  demoPolicy: "noisy-oracle:0.2",
  demoTasks: 400,
  demoSamples: 1,
  sftSteps: 1500,
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
  teacherForcedSamples: 1,
  perturbTurns: [2],
  perturbSamples: 2,
  bootstrap: 500,
};

/** The quick preset with more demonstrations, steps and perturbations, and six seeds, sized to fit 45 minutes on 2 quiet
 * cores: the same model, learning rates and budgets. Each seed's SFT and RL (the models the claims compare) are those of
 * the three-seed design before it; what six seeds cost is paid in held-out tasks, chosen from a pilot's variance parts
 * (scripts/study-power.ts on seeds 101-103, never the study's): with six seeds the seeds, not the tasks, set the width
 * of most deciding comparisons, and 50 tasks per env keep every one of them but two (task-dominated: step quality at
 * 1.25x, recovery minus step quality) below what three seeds of 150 tasks could detect (docs/study.md, Presets). */
const FULL: PresetSizes = {
  ...QUICK,
  heldOutTasks: 50,
  demoTasks: 1500,
  sftSteps: 3000,
  rlSteps: 50,
  tasksPerStep: 12,
  trainEvalEvery: 20,
  trainEvalTasks: 50,
  samples: 8,
  ks: "1,2,4,8",
  teacherForcedSamples: 1,
  perturbTurns: [2, 4],
  perturbSamples: 2,
  bootstrap: 1000,
};

export const PRESETS: Readonly<Record<StudyPreset, PresetSizes>> = { quick: QUICK, full: FULL };

/** The seeds of a preset: quick runs one (CI), full three (each replicating the whole pipeline). */
export const PRESET_SEEDS: Readonly<Record<StudyPreset, readonly number[]>> = { quick: [1], full: [1, 2, 3, 4, 5, 6] };

/** What a single-env study uses beyond the env's defaults: hanoi starts anywhere (a horizon dial); bfcl, which cannot
 * say a task's optimal length, is budgeted as the paper's Table 1, in percent of upstream's 20 steps per user turn
 * (10% = 2 steps: the ground truth's own pace, a call and a closing answer; 100% = upstream's limit). */
const ENV_DESIGN: Readonly<
  Record<
    StudyEnvName,
    {
      readonly options: Record<string, string | number | boolean>;
      readonly budgets: string;
      readonly budgetScope: (typeof BUDGET_SCOPES)[number];
      readonly heldOut: HeldOutKind;
    }
  >
> = {
  vault: { options: {}, budgets: STUDY_BUDGETS, budgetScope: "episode", heldOut: "content" },
  thinice: { options: {}, budgets: STUDY_BUDGETS, budgetScope: "episode", heldOut: "structure" },
  sokoban: { options: {}, budgets: STUDY_BUDGETS, budgetScope: "episode", heldOut: "content" },
  frozenlake: { options: {}, budgets: STUDY_BUDGETS, budgetScope: "episode", heldOut: "content" },
  hanoi: {
    options: { disks: 4, randomStart: true },
    budgets: STUDY_BUDGETS,
    budgetScope: "episode",
    heldOut: "content",
  },
  bfcl: { options: {}, budgets: "10%,25%,50%,100%", budgetScope: "user-turn", heldOut: "content" },
};

export interface StudyChoice {
  readonly preset: StudyPreset;
  /** One env tested for every claim with every RL run; default: the two-env design (a budget trade-off env for
   * the budget claims, a horizon env for recovery and horizon). */
  readonly env?: StudyEnvName;
  readonly envOptions?: Readonly<Record<string, string | number | boolean | null>>;
  /** The one env's budgets, scope and RL runs (default: the env's design, every RL run). */
  readonly budgets?: string;
  readonly budgetScope?: (typeof BUDGET_SCOPES)[number];
  readonly variants?: readonly VariantSlug[];
  /** Where the base models come from (default: SFT here, or with the Tinker trainer its base model); an openai base
   * with the sampling options set (typed; the rest filled in when the config is made). */
  readonly base?: BaseChoice;
  /** Where RL trains (default: in-process). */
  readonly trainer?: TrainerSourceInput;
  /** The seeds (default: the preset's: quick 1, full 1-6); `seed` is a one-seed study. */
  readonly seeds?: readonly number[];
  readonly seed?: number;
  readonly heldOutSeed?: number;
  /** The analysis plan (default: every claim on every env whose models it compares, the default margins). */
  readonly plan?: unknown;
  /** Fields of the preset to override (sizes), as a user would write them. */
  readonly overrides?: Partial<PresetSizes>;
  /** The envs in full (library users): overrides `env`. */
  readonly envs?: readonly z.input<typeof studyEnvSchema>[];
}

/** The envs of a study: given in full, one env for everything, or the two-env design. */
function envsOf(choice: StudyChoice): z.input<typeof studyEnvSchema>[] {
  if (choice.envs !== undefined) return [...choice.envs];
  if (choice.env === undefined) return [TRADE_OFF_ENV, HORIZON_ENV];
  const design = ENV_DESIGN[choice.env];
  return [
    {
      env: choice.env,
      envOptions: { ...design.options, ...choice.envOptions },
      heldOut: design.heldOut,
      budgets: choice.budgets ?? design.budgets,
      budgetScope: choice.budgetScope ?? design.budgetScope,
      variants: [...(choice.variants ?? EVERY_VARIANT)],
    },
  ];
}

/** The base a choice names, or its trainer's default: SFT here for the in-process trainer, the Tinker trainer's own base model. */
function baseOf(choice: StudyChoice): BaseChoice {
  return choice.base ?? (choice.trainer?.kind === "tinker" ? { kind: "tinker" } : { kind: "sft" });
}

/** The full config of a study from a preset, its envs, and overrides; throws ConfigError naming a bad field. */
export function studyConfig(choice: StudyChoice): Readonly<StudyConfig> {
  if (choice.env === undefined) {
    if (choice.envOptions !== undefined && Object.keys(choice.envOptions).length > 0)
      throw new ConfigError("env-opt", "env options need one env", "name it with --env");
    for (const [field, value] of [
      ["budget", choice.budgets],
      ["budget-scope", choice.budgetScope],
      ["variants", choice.variants],
    ] as const) {
      if (value !== undefined) throw new ConfigError(field, "is set per env: it needs one env", "name it with --env");
    }
  }
  const sizes = { ...PRESETS[choice.preset], ...choice.overrides };
  const base = baseOf(choice);
  // An openai base's replies are as long as the other models' unless its options say otherwise (stored filled in).
  const stored =
    base.kind === "openai"
      ? { ...base, options: baseSamplingOptions(base.options ?? {}, (sizes.maxNewTokens ?? 16) as number) }
      : base;
  const envs = envsOf(choice);
  const seeds = choice.seeds ?? (choice.seed === undefined ? PRESET_SEEDS[choice.preset] : [choice.seed]);
  return parseStudyConfig({
    ...sizes,
    preset: choice.preset,
    envs,
    seeds,
    heldOutSeed: choice.heldOutSeed ?? 1,
    // Made now, before any stage: the plan of these envs and models (or the one given), stored with the study.
    plan: choice.plan ?? defaultAnalysisPlan(planEnvsOf(envs.map((entry) => studyEnvSchema.parse(entry))), seeds),
    base: stored,
    trainer: choice.trainer ?? { kind: "tiny" },
  });
}

/** The study's envs as the analysis plan sees them: budgets in axis order, the roles of the models trained there. */
export function planEnvsOf(envs: readonly StudyEnv[]): PlanEnv[] {
  return envs.map((entry) => ({
    env: entry.env,
    budgets: [...entry.budgets].sort((x, y) => budgetSize(x) - budgetSize(y)).map((spec) => spec.label),
    roles: ["base", ...entry.variants.map((slug) => VARIANT_ROLES[slug]).filter((role) => role !== "other")],
  }));
}

/** The role of each RL variant in the findings (plan.ts says what each one is). */
export const VARIANT_ROLES: Readonly<Record<VariantSlug, string>> = {
  "grpo-full": "grpo",
  "grpo-tight": "other",
  "turn-level": "process",
  budgetmix: "budgetmix",
  "budgetmix-hidden": "budgetmix-hidden",
};

/** Validate a study config (an openai base's stored sampling options read back by their schema: sources.ts);
 * cross-field rules: K <= samples, perturbation samples <= samples, the training curves' tasks among the held-out
 * ones, each env once, each seed once, at least two budgets per env, a base the trainer can train, a plan whose claims
 * name the study's envs, their budgets and models it has. */
export function parseStudyConfig(input: unknown): Readonly<StudyConfig> {
  // A plan of an earlier version is refused in its own words (what changed), before the schema's.
  const plan = typeof input === "object" && input !== null ? (input as { plan?: unknown }).plan : undefined;
  if (plan !== undefined) parseAnalysisPlan(plan);
  const config = parseConfig(studyConfigSchema, input);
  if (Math.max(...config.ks) > config.samples)
    throw new ConfigError(
      "ks",
      `K = ${Math.max(...config.ks)} is larger than the samples per task (${config.samples})`,
    );
  if (config.perturbSamples > config.samples)
    throw new ConfigError(
      "perturbSamples",
      `${config.perturbSamples} recovery samples, but the grid has ${config.samples}`,
    );
  if (config.trainEvalTasks > config.heldOutTasks)
    throw new ConfigError(
      "trainEvalTasks",
      `the training curves' ${config.trainEvalTasks} tasks must be among the ${config.heldOutTasks} held-out ones`,
    );
  const names = config.envs.map((entry) => entry.env);
  if (new Set(names).size !== names.length) throw new ConfigError("envs", "an env is listed twice");
  if (new Set(config.seeds).size !== config.seeds.length) throw new ConfigError("seeds", "a seed is listed twice");
  for (const entry of config.envs) {
    if (entry.budgets.length < 2)
      throw new ConfigError(
        `envs.${entry.env}.budgets`,
        "a study needs at least two budgets (a tight and a generous one)",
      );
    if (new Set(entry.budgets.map((spec) => spec.kind)).size > 1)
      throw new ConfigError(`envs.${entry.env}.budgets`, "budgets of one kind only");
    if (new Set(entry.variants).size !== entry.variants.length)
      throw new ConfigError(`envs.${entry.env}.variants`, "an RL run is listed twice");
  }
  checkSources(config.base, config.trainer);
  checkAnalysisPlan(config.plan, planEnvsOf(config.envs), config.seeds);
  return config;
}

export type { AnalysisPlan };

/** Whether the study makes its base models here (demonstrations and SFT), or takes them as they are. */
export function trainsBase(config: { readonly base: BaseSource }): boolean {
  return config.base.kind === "sft";
}

export function encodeStudyConfig(config: Readonly<StudyConfig>): Json {
  return encodeConfig(studyConfigSchema, config) as Json;
}
