// What a study makes, by name, env by env: the held-out set, the base model, the RL runs (from the same base with
// the same compute, their budgets taken from the env's budget list) and the evaluation runs of every model (the
// Pass@(K,T) grid announced and hidden, teacher-forced runs in both modes, recovery runs). Pure: names, paths and
// configs; stages.ts runs them.
//   <out>/study.json            the study config        <out>/<env>/held-out.json   the env's held-out task ids
//   <out>/<env>/base/           its SFT base model       <out>/<env>/rl/<slug>/      one RL run each
//   <out>/study.db              every evaluation run     <out>/report.html           the report (report.json: its data)
import { join } from "node:path";
import { budgetSize, largestBudget, type BudgetSpec } from "../core/budget.js";
import { deriveSeed } from "../core/rng.js";
import type { HeldOutSet } from "../eval/tasks.js";
import type { ModelRole } from "../report/study-model.js";
import type { StudyConfig, StudyEnv, VariantSlug } from "./config.js";

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
export function budgetEnds(budgets: readonly BudgetSpec[]): { readonly tight: BudgetSpec; readonly generous: BudgetSpec } {
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
      return { slug, name: "GRPO-Full", role: "grpo", algo: "grpo", budget: `fixed:${generous.label}`, budgetMode: "announced", description: `trajectory-level GRPO at the most generous budget (${generous.label})` };
    case "grpo-tight":
      return { slug, name: `GRPO-Full@${tight.label}`, role: "other", algo: "grpo", budget: `fixed:${tight.label}`, budgetMode: "announced", description: `trajectory-level GRPO at the tightest budget (${tight.label})` };
    case "turn-level":
      return { slug, name: "turn-level", role: "process", algo: "turn", budget: `fixed:${generous.label}`, budgetMode: "announced", description: "process supervision: turn rewards from the budget-aware oracle's success probability within the turns left" };
    case "budgetmix":
      return { slug, name: "BudgetMix", role: "budgetmix", algo: "grpo", budget: mix, budgetMode: "announced", description: "GRPO over budgets drawn per group, announced" };
    case "budgetmix-hidden":
      return { slug, name: "BudgetMix (hidden)", role: "budgetmix-hidden", algo: "grpo", budget: mix, budgetMode: "hidden", description: "GRPO over budgets drawn per group, never stated (beyond the paper)" };
  }
}

export function rlVariants(entry: Pick<StudyEnv, "variants" | "budgets">): readonly RlVariant[] {
  return entry.variants.map((slug) => variantOf(slug, entry.budgets));
}

/** A model the study trains on one env (its base, or an RL run's final checkpoint), as it is evaluated. */
export interface TrainedModel {
  readonly env: string;
  readonly slug: string;
  readonly name: string;
  readonly role: ModelRole;
  readonly checkpoint: string;
}

export const envDir = (out: string, entry: Pick<StudyEnv, "env">): string => join(out, entry.env);
export const baseDir = (out: string, entry: Pick<StudyEnv, "env">): string => join(envDir(out, entry), "base");
export const rlDir = (out: string, entry: Pick<StudyEnv, "env">, variant: Pick<RlVariant, "slug">): string => join(envDir(out, entry), "rl", variant.slug);
export const studyDb = (out: string): string => join(out, "study.db");
export const finalCheckpoint = (out: string, entry: Pick<StudyEnv, "env">, variant: Pick<RlVariant, "slug">, config: Pick<StudyConfig, "rlSteps">): string =>
  join(rlDir(out, entry, variant), "checkpoints", `step-${String(config.rlSteps).padStart(6, "0")}`);

export function studyModels(config: StudyConfig, out: string): TrainedModel[] {
  return config.envs.flatMap((entry) => [
    { env: entry.env, slug: "base", name: "base", role: "base" as const, checkpoint: baseDir(out, entry) },
    ...rlVariants(entry).map((variant) => ({ env: entry.env, slug: variant.slug, name: variant.name, role: variant.role, checkpoint: finalCheckpoint(out, entry, variant, config) })),
  ]);
}

/** An env's held-out set: every model is evaluated on it; demonstrations and RL never draw from it. */
export function heldOutSet(config: Pick<StudyConfig, "seed" | "heldOutTasks">, entry: Pick<StudyEnv, "env">): HeldOutSet {
  return { seed: deriveSeed(config.seed, "held-out", entry.env), tasks: config.heldOutTasks };
}

/** One evaluation run of a model: its name in study.db and what sets it apart. */
export interface StudyEvalRun {
  readonly run: string;
  readonly model: TrainedModel;
  readonly budgetMode: "announced" | "hidden";
  readonly intervention: string;
  readonly samples: number;
  readonly ks: readonly number[];
  readonly budgets: readonly string[];
}

const MODES = ["announced", "hidden"] as const;

/** Every evaluation run, model by model: the grid and the teacher-forced runs in both modes at every budget, then
 * the recovery runs (announced, at the budgets with room to recover: all but the tightest). */
export function evalRuns(config: StudyConfig, models: readonly TrainedModel[]): StudyEvalRun[] {
  return models.flatMap((model) => {
    const entry = config.envs.find((candidate) => candidate.env === model.env) as StudyEnv;
    const grid = entry.budgets.map((spec) => spec.label);
    const { tight } = budgetEnds(entry.budgets);
    const roomy = grid.filter((label) => label !== tight.label);
    const prefix = `${model.env}/${model.slug}`;
    return [
      ...MODES.map((mode) => ({ run: `${prefix}/${mode}`, model, budgetMode: mode, intervention: "none", samples: config.samples, ks: config.ks, budgets: grid })),
      ...(config.teacherForcedSamples === 0 ? [] : MODES.map((mode) => ({ run: `${prefix}/teacher-forced-${mode}`, model, budgetMode: mode, intervention: "teacher-forced", samples: config.teacherForcedSamples, ks: [1], budgets: grid }))),
      ...(config.perturbSamples === 0 ? [] : config.perturbTurns.map((turn) => ({ run: `${prefix}/recover-${turn}`, model, budgetMode: "announced" as const, intervention: `recover:${turn}`, samples: config.perturbSamples, ks: [1], budgets: roomy }))),
    ];
  });
}
