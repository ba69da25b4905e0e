// What a study makes, by name, seed by seed and env by env: the held-out set (one per env, shared by the seeds), the
// ranges (the oracle and a random policy on it, before any training), and per seed the base model, the RL runs (from
// the same base with the same compute, their budgets taken from the env's budget list) and the evaluation runs of
// every model (the Pass@(K,T) grid announced and hidden, teacher-forced runs in both modes, recovery runs). Pure:
// names, paths and configs; stages.ts runs them. Every model is planned as data (StudyModelPlan): its seed, its role,
// its policy as a typed spec and how it was made, which the report carries as they are (nothing is read back from
// names or policy text).
//   <out>/study.json               the study config, its plan and the plan's hash
//   <out>/<env>/held-out.json      the env's held-out task ids (every seed's)
//   <out>/seed-<s>/<env>/base/     seed s's SFT base model     <out>/seed-<s>/<env>/rl/<slug>/   its RL runs
//   <out>/study.db                 every evaluation run: seed-<s>/<env>/<model>/<kind>, and ranges/<env>/<policy>/<kind>
//   <out>/report.html              the report (report.json: its data)
// A base that is not made here (a served model, a Tinker service's base model) has no folder: it is evaluated as
// it is; the RL runs of a Tinker trainer keep their checkpoints' tinker:// paths in their folders as always.
import { join } from "node:path";
import { budgetSize, largestBudget, type BudgetSpec } from "../core/budget.js";
import { policySpecLabel, type PolicySpec } from "../core/policy-spec.js";
import { deriveSeed } from "../core/rng.js";
import type { HeldOutSet } from "../eval/tasks.js";
import type { ModelRole, StudyModelSource, StudySetup } from "../report/study-model.js";
import type { TrainConfigInput } from "../rl/train-config.js";
import type { StudyConfig, StudyEnv, VariantSlug } from "./config.js";
import { baseSourceLabel } from "./sources.js";

/** An RL run of the study: its estimator, budget schedule and the budget mode it trains with. */
export interface RlVariant {
  readonly slug: VariantSlug;
  readonly name: string;
  readonly role: ModelRole;
  readonly algo: "grpo" | "turn";
  readonly budget: string;
  readonly budgetMode: "announced" | "hidden";
  readonly description: string;
}

/** The tightest and the most generous budget of an env. */
export function budgetEnds(budgets: readonly BudgetSpec[]): {
  readonly tight: BudgetSpec;
  readonly generous: BudgetSpec;
} {
  const generous = largestBudget(budgets);
  const tight = budgets.reduce((best, spec) => (budgetSize(spec) < budgetSize(best) ? spec : best));
  return { tight, generous };
}

/** What each variant is on an env with these budgets (GRPO-Full at the most generous, BudgetMix over all). */
export function variantOf(slug: VariantSlug, budgets: readonly BudgetSpec[]): RlVariant {
  const { tight, generous } = budgetEnds(budgets);
  const mix = `budgetmix:${budgets.map((spec) => spec.label).join(",")}`;
  switch (slug) {
    case "grpo-full":
      return {
        slug,
        name: "GRPO-Full",
        role: "grpo",
        algo: "grpo",
        budget: `fixed:${generous.label}`,
        budgetMode: "announced",
        description: `trajectory-level GRPO at the most generous budget (${generous.label})`,
      };
    case "grpo-tight":
      return {
        slug,
        name: `GRPO-Full@${tight.label}`,
        role: "other",
        algo: "grpo",
        budget: `fixed:${tight.label}`,
        budgetMode: "announced",
        description: `trajectory-level GRPO at the tightest budget (${tight.label})`,
      };
    case "turn-level":
      return {
        slug,
        name: "turn-level",
        role: "process",
        algo: "turn",
        budget: `fixed:${generous.label}`,
        budgetMode: "announced",
        description:
          "process supervision: turn rewards from the budget-aware oracle's success probability within the turns left",
      };
    case "budgetmix":
      return {
        slug,
        name: "BudgetMix",
        role: "budgetmix",
        algo: "grpo",
        budget: mix,
        budgetMode: "announced",
        description: "GRPO over budgets drawn per group, announced",
      };
    case "budgetmix-hidden":
      return {
        slug,
        name: "BudgetMix (hidden)",
        role: "budgetmix-hidden",
        algo: "grpo",
        budget: mix,
        budgetMode: "hidden",
        description: "GRPO over budgets drawn per group, never stated (beyond the paper)",
      };
  }
}

export function rlVariants(entry: Pick<StudyEnv, "variants" | "budgets">): readonly RlVariant[] {
  return entry.variants.map((slug) => variantOf(slug, entry.budgets));
}

/** A model of the study on one env (its base, or an RL run's final checkpoint), as it is evaluated: its role, its
 * policy (tiny:CKPT, openai:MODEL, tinker:BASE[@CKPT]) and how it was made. */
export interface StudyModelPlan {
  /** The seed whose pipeline made it. */
  readonly seed: number;
  readonly env: string;
  readonly slug: "base" | VariantSlug;
  readonly name: string;
  readonly role: ModelRole;
  readonly policy: PolicySpec;
  readonly source: StudyModelSource;
}

/** @deprecated the former name of StudyModelPlan. */
export type TrainedModel = StudyModelPlan;

/** An env's folder of what its seeds share (the held-out set). */
export const envDir = (out: string, entry: Pick<StudyEnv, "env">): string => join(out, entry.env);
/** An env's folder in one seed's pipeline. */
export const seedEnvDir = (out: string, seed: number, entry: Pick<StudyEnv, "env">): string =>
  join(out, `seed-${seed}`, entry.env);
export const baseDir = (out: string, seed: number, entry: Pick<StudyEnv, "env">): string =>
  join(seedEnvDir(out, seed, entry), "base");
export const rlDir = (
  out: string,
  seed: number,
  entry: Pick<StudyEnv, "env">,
  variant: Pick<RlVariant, "slug">,
): string => join(seedEnvDir(out, seed, entry), "rl", variant.slug);
export const studyDb = (out: string): string => join(out, "study.db");
export const finalCheckpoint = (
  out: string,
  seed: number,
  entry: Pick<StudyEnv, "env">,
  variant: Pick<RlVariant, "slug">,
  config: Pick<StudyConfig, "rlSteps">,
): string => join(rlDir(out, seed, entry, variant), "checkpoints", `step-${String(config.rlSteps).padStart(6, "0")}`);

/** What an RL run trains (the trainer's base, or the env's SFT base), in words. */
function trainerText(config: StudyConfig): string {
  const trainer = config.trainer;
  if (trainer.kind === "tiny") return "the in-process transformer, from the SFT base";
  return `a LoRA (rank ${trainer.loraRank}) of ${trainer.baseModel} on a Tinker service, one training client per RL run, prompts rendered by ${trainer.renderer}`;
}

/** The base of an env: made here by SFT, served, or the Tinker trainer's base model. */
function basePlan(config: StudyConfig, out: string, seed: number, entry: StudyEnv): StudyModelPlan {
  const model = { seed, env: entry.env, slug: "base" as const, name: "base", role: "base" as const };
  const base = config.base;
  switch (base.kind) {
    case "sft":
      return {
        ...model,
        policy: { kind: "tiny", checkpoint: baseDir(out, seed, entry) },
        source: {
          policy: { kind: "tiny", checkpoint: baseDir(out, seed, entry) },
          origin: "sft",
          made: `SFT here: ${config.sftSteps} steps on the optimal replies (hidden budgets: the budget-blind Bayes move) in ${config.demoTasks} tasks' demonstrations of ${policySpecLabel(config.demoPolicy)}`,
        },
      };
    case "openai":
      return {
        ...model,
        policy: { kind: "openai", model: base.model },
        source: {
          policy: { kind: "openai", model: base.model },
          origin: "served",
          made: `served model ${base.model}, evaluated as it is served (no demonstrations, no SFT)`,
        },
      };
    case "tinker": {
      const baseModel = config.trainer.kind === "tinker" ? config.trainer.baseModel : "";
      return {
        ...model,
        policy: { kind: "tinker", baseModel },
        source: {
          policy: { kind: "tinker", baseModel },
          origin: "base-model",
          made: `the Tinker service's ${baseModel}, sampled as it is (no demonstrations, no SFT)`,
        },
      };
    }
  }
}

/** An RL run's model: its final checkpoint, sampled in-process or through the Tinker service's sampler. */
function variantPlan(
  config: StudyConfig,
  out: string,
  seed: number,
  entry: StudyEnv,
  variant: RlVariant,
): StudyModelPlan {
  const checkpoint = finalCheckpoint(out, seed, entry, variant, config);
  const policy: PolicySpec =
    config.trainer.kind === "tinker"
      ? { kind: "tinker", baseModel: config.trainer.baseModel, checkpoint }
      : { kind: "tiny", checkpoint };
  return {
    seed,
    env: entry.env,
    slug: variant.slug,
    name: variant.name,
    role: variant.role,
    policy,
    source: {
      policy,
      origin: "rl",
      made: `${variant.description}, ${config.rlSteps} RL steps on ${trainerText(config)}`,
    },
  };
}

/** Every model of the study, seed by seed, env by env: the base, then the RL runs. */
export function studyModels(config: StudyConfig, out: string): StudyModelPlan[] {
  return config.seeds.flatMap((seed) =>
    config.envs.flatMap((entry) => [
      basePlan(config, out, seed, entry),
      ...rlVariants(entry).map((variant) => variantPlan(config, out, seed, entry, variant)),
    ]),
  );
}

/** Where the study's models come from, for the report's header and the progress lines. */
export function studySetup(config: StudyConfig): StudySetup {
  const base = config.base;
  const text =
    base.kind === "sft"
      ? `SFT here from a fresh in-process model on demonstrations of ${policySpecLabel(config.demoPolicy)}`
      : base.kind === "openai"
        ? `${baseSourceLabel(base)}, a served model evaluated as it is served`
        : `the Tinker service's ${config.trainer.kind === "tinker" ? config.trainer.baseModel : "base model"}, sampled as it is`;
  const skipped =
    base.kind === "sft"
      ? []
      : [
          `demonstrations and SFT (the base is ${base.kind === "openai" ? "served" : "the trainer's base model"}, not made here)`,
        ];
  return { base: text, trainer: trainerText(config), skipped };
}

/** An RL run's train config (`budgetrl train`), as it is stored in its folder: the same compute, learning rate,
 * warm-up, reward and seed for every variant, from the env's SFT base (in-process) or the trainer's base model
 * (Tinker: a LoRA per run, the trainer's renderer); its held-out evaluations draw the env's held-out set. */
export function rlTrainConfig(
  config: StudyConfig,
  out: string,
  seed: number,
  entry: StudyEnv,
  variant: RlVariant,
): TrainConfigInput {
  const heldOut = heldOutSet(config, entry);
  const trainer = config.trainer;
  // The Tinker trainer's fields are the tinker backend's (sources.ts).
  const backend: TrainConfigInput["backend"] =
    trainer.kind === "tinker" ? trainer : { kind: "tiny", init: baseDir(out, seed, entry) };
  return {
    env: entry.env,
    envOptions: entry.envOptions,
    backend,
    algo: { name: variant.algo, reward: "success" },
    budget: variant.budget,
    budgetMode: variant.budgetMode,
    budgetScope: entry.budgetScope,
    tasksPerStep: config.tasksPerStep,
    group: config.group,
    steps: config.rlSteps,
    seed,
    learningRate: config.rlLearningRate,
    warmupSteps: 2,
    maxNewTokens: config.maxNewTokens,
    evalEvery: config.trainEvalEvery,
    evalTasks: config.trainEvalTasks,
    evalSeed: heldOut.seed,
    evalDistinct: entry.heldOut,
    evalSamples: 2,
    evalBudgets: entry.budgets.map((spec) => spec.label),
    exclude: { ...heldOut },
    checkpointEvery: Math.max(1, Math.min(config.rlSteps, 10)),
  };
}

/** An env's held-out set, the same in every seed: every model is evaluated on it; demonstrations and RL never draw
 * from it (by content, or by structure where the env's design says so). */
export function heldOutSet(
  config: Pick<StudyConfig, "heldOutSeed" | "heldOutTasks">,
  entry: Pick<StudyEnv, "env" | "heldOut">,
): HeldOutSet {
  return { seed: deriveSeed(config.heldOutSeed, "held-out", entry.env), tasks: config.heldOutTasks, by: entry.heldOut };
}

/** One evaluation run of a model (or of a reference policy: the ranges): its name in study.db and what sets it apart. */
export interface StudyEvalRun {
  readonly run: string;
  readonly model: Pick<StudyModelPlan, "env" | "name" | "policy">;
  readonly budgetMode: "announced" | "hidden";
  readonly intervention: string;
  readonly samples: number;
  readonly ks: readonly number[];
  readonly budgets: readonly string[];
}

const MODES = ["announced", "hidden"] as const;

/** The budget modes a model is evaluated in: announced always; hidden too for the base (its competence with the
 * budget hidden) and for the models the analysis plan compares with the budget hidden on that env. */
export function evalModes(
  config: Pick<StudyConfig, "plan">,
  model: Pick<StudyModelPlan, "env" | "role">,
): readonly ("announced" | "hidden")[] {
  const hidden =
    model.role === "base" ||
    config.plan.claims.some(
      (claim) =>
        claim.id === "hidden-budget" && claim.envs.includes(model.env) && [claim.a, claim.b].includes(model.role),
    );
  return hidden ? MODES : ["announced"];
}

/** Every evaluation run, model by model: the grid and the teacher-forced runs at every budget in the model's modes
 * (evalModes), then the recovery runs (announced, at the budgets with room to recover: all but the tightest). */
export function evalRuns(config: StudyConfig, models: readonly StudyModelPlan[]): StudyEvalRun[] {
  return models.flatMap((model) => {
    const prefix = `seed-${model.seed}/${model.env}/${model.slug}`;
    const modes = evalModes(config, model);
    const entry = config.envs.find((candidate) => candidate.env === model.env) as StudyEnv;
    const grid = entry.budgets.map((spec) => spec.label);
    const { tight } = budgetEnds(entry.budgets);
    const roomy = grid.filter((label) => label !== tight.label);
    return [
      ...modes.map((mode) => ({
        run: `${prefix}/${mode}`,
        model,
        budgetMode: mode,
        intervention: "none",
        samples: config.samples,
        ks: config.ks,
        budgets: grid,
      })),
      ...(config.teacherForcedSamples === 0
        ? []
        : modes.map((mode) => ({
            run: `${prefix}/teacher-forced-${mode}`,
            model,
            budgetMode: mode,
            intervention: "teacher-forced",
            samples: config.teacherForcedSamples,
            ks: [1],
            budgets: grid,
          }))),
      ...(config.perturbSamples === 0
        ? []
        : config.perturbTurns.map((turn) => ({
            run: `${prefix}/recover-${turn}`,
            model,
            budgetMode: "announced" as const,
            intervention: `recover:${turn}`,
            samples: config.perturbSamples,
            ks: [1],
            budgets: roomy,
          }))),
    ];
  });
}

/** The reference policies of the ranges: what a statistic can show on an env, before any model is trained. */
export const RANGE_POLICIES = [
  { name: "oracle", policy: { kind: "oracle", horizon: "turns-left" } },
  { name: "random", policy: { kind: "random" } },
] as const satisfies readonly { readonly name: string; readonly policy: PolicySpec }[];

/** The ranges' runs: the budget-aware oracle and a uniformly random policy on each env's held-out tasks, with the
 * budget announced: the grid at every budget (Pass@1, the longest tasks), teacher-forced (step quality) and the
 * recovery runs (success after a forced error), at the study's sizes. */
export function rangeRuns(config: StudyConfig): StudyEvalRun[] {
  return config.envs.flatMap((entry) => {
    const grid = entry.budgets.map((spec) => spec.label);
    const { tight } = budgetEnds(entry.budgets);
    const roomy = grid.filter((label) => label !== tight.label);
    return RANGE_POLICIES.flatMap(({ name, policy }) => {
      const model = { env: entry.env, name, policy };
      const prefix = `ranges/${entry.env}/${name}`;
      return [
        {
          run: `${prefix}/announced`,
          model,
          budgetMode: "announced" as const,
          intervention: "none",
          samples: config.samples,
          ks: [1],
          budgets: grid,
        },
        {
          run: `${prefix}/teacher-forced-announced`,
          model,
          budgetMode: "announced" as const,
          intervention: "teacher-forced",
          samples: Math.max(1, config.teacherForcedSamples),
          ks: [1],
          budgets: grid,
        },
        ...config.perturbTurns.map((turn) => ({
          run: `${prefix}/recover-${turn}`,
          model,
          budgetMode: "announced" as const,
          intervention: `recover:${turn}`,
          samples: Math.max(1, config.perturbSamples),
          ks: [1],
          budgets: roomy,
        })),
      ];
    });
  });
}
