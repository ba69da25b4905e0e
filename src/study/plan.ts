// What a study makes, by name: the held-out set, the base model, the RL runs (the paper's four, from the same
// base with the same compute, and BudgetMix with hidden budgets beyond it), and the evaluation runs of every
// model (the Pass@(K,T) grid announced and hidden, teacher-forced runs, perturbation runs). Pure: names, paths
// and configs; stages.ts runs them.
//   <out>/study.json     the study config            <out>/held-out.json   the held-out task ids
//   <out>/base/          the SFT base model           <out>/rl/<slug>/      one RL run each
//   <out>/study.db       every evaluation run         <out>/report.html     the report (report.json: its data)
import { join } from "node:path";
import { deriveSeed } from "../core/rng.js";
import type { HeldOutSet } from "../eval/tasks.js";
import type { ModelRole } from "../report/study-model.js";
import type { StudyConfig } from "./config.js";

/** An RL run of the study: its estimator, budget schedule and the budget mode it trains with. */
export interface RlVariant {
  readonly slug: string;
  readonly name: string;
  readonly role: ModelRole;
  readonly algo: "grpo" | "turn";
  readonly budget: string;
  readonly budgetMode: "announced" | "hidden";
  readonly description: string;
}

export const PAPER_VARIANTS: readonly RlVariant[] = [
  { slug: "grpo-full", name: "GRPO-Full", role: "grpo", algo: "grpo", budget: "fixed:100%", budgetMode: "announced", description: "trajectory-level GRPO at the full budget" },
  { slug: "grpo-full-25", name: "GRPO-Full@25%", role: "other", algo: "grpo", budget: "fixed:25%", budgetMode: "announced", description: "trajectory-level GRPO at a 25% budget" },
  { slug: "turn-level", name: "turn-level", role: "process", algo: "turn", budget: "fixed:100%", budgetMode: "announced", description: "process supervision: turn-level progress rewards" },
  { slug: "budgetmix", name: "BudgetMix", role: "budgetmix", algo: "grpo", budget: "budgetmix:25%,50%,75%,100%", budgetMode: "announced", description: "GRPO over budgets drawn per group, announced" },
];

export const HIDDEN_BUDGETMIX: RlVariant = { slug: "budgetmix-hidden", name: "BudgetMix (hidden)", role: "budgetmix-hidden", algo: "grpo", budget: "budgetmix:25%,50%,75%,100%", budgetMode: "hidden", description: "GRPO over budgets drawn per group, never stated (beyond the paper)" };

export function rlVariants(config: Pick<StudyConfig, "hiddenBudgetMix">): readonly RlVariant[] {
  return config.hiddenBudgetMix ? [...PAPER_VARIANTS, HIDDEN_BUDGETMIX] : PAPER_VARIANTS;
}

/** A model the study trains (the base, or an RL run's final checkpoint), as it is evaluated. */
export interface TrainedModel {
  readonly slug: string;
  readonly name: string;
  readonly role: ModelRole;
  readonly checkpoint: string;
}

export function studyModels(config: StudyConfig, out: string): TrainedModel[] {
  return [
    { slug: "base", name: "base", role: "base", checkpoint: baseDir(out) },
    ...rlVariants(config).map((variant) => ({ slug: variant.slug, name: variant.name, role: variant.role, checkpoint: finalCheckpoint(out, variant, config) })),
  ];
}

export const baseDir = (out: string): string => join(out, "base");
export const rlDir = (out: string, variant: Pick<RlVariant, "slug">): string => join(out, "rl", variant.slug);
export const studyDb = (out: string): string => join(out, "study.db");
export const finalCheckpoint = (out: string, variant: Pick<RlVariant, "slug">, config: Pick<StudyConfig, "rlSteps">): string =>
  join(rlDir(out, variant), "checkpoints", `step-${String(config.rlSteps).padStart(6, "0")}`);

/** The held-out set: every model is evaluated on it; demonstrations and RL never draw from it. */
export function heldOutSet(config: Pick<StudyConfig, "seed" | "heldOutTasks">): HeldOutSet {
  return { seed: deriveSeed(config.seed, "held-out"), tasks: config.heldOutTasks };
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

/** Every evaluation run, model by model: the grid (announced, hidden), teacher-forced, then perturbations. */
export function evalRuns(config: StudyConfig, models: readonly TrainedModel[]): StudyEvalRun[] {
  const grid = config.budgets.map((spec) => spec.label);
  return models.flatMap((model) => [
    ...(["announced", "hidden"] as const).map((mode) => ({ run: `${model.slug}/${mode}`, model, budgetMode: mode, intervention: "none", samples: config.samples, ks: config.ks, budgets: grid })),
    ...(config.teacherForcedSamples === 0 ? [] : [{ run: `${model.slug}/teacher-forced`, model, budgetMode: "announced" as const, intervention: "teacher-forced", samples: config.teacherForcedSamples, ks: [1], budgets: ["100%"] }]),
    ...(config.perturbSamples === 0
      ? []
      : config.perturbTurns.map((turn) => ({ run: `${model.slug}/recover-${turn}`, model, budgetMode: "announced" as const, intervention: `recover:${turn}`, samples: config.perturbSamples, ks: [1], budgets: config.perturbBudgets.map((spec) => spec.label) }))),
  ]);
}
