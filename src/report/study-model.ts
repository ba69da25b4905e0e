// The study report's data model: one typed, JSON-serialisable object built from runs in a store (study-build.ts),
// rendered as HTML (html/) and as terminal tables (study-tables.ts). Numbers that could not be measured are
// null (never NaN), so the JSON reads back to the same object. Every estimate is a mean over tasks with a 95%
// percentile bootstrap interval over tasks; every comparison between models is a paired difference on shared
// tasks (metrics/paired-difference.ts).
import type { Json } from "../core/json.js";
import type { PolicySpec } from "../core/policy-spec.js";
import type { DifferenceDirection } from "../metrics/paired-difference.js";
import type { Estimate } from "../metrics/task-mean.js";
import type { PassCell } from "../metrics/pass-at-kt.js";
import type { ExampleEpisode, ExampleTurn } from "../store/analysis-rows.js";

export const STUDY_REPORT_VERSION = 1;

/** What a model is in the paper's comparisons. */
export const MODEL_ROLES = ["base", "grpo", "process", "budgetmix", "budgetmix-hidden", "other"] as const;
export type ModelRole = (typeof MODEL_ROLES)[number];

export const ROLE_NAMES: Readonly<Record<ModelRole, string>> = {
  base: "base model",
  grpo: "GRPO-Full (trajectory-level RL)",
  process: "process supervision (turn-level credit)",
  budgetmix: "BudgetMix (RL over mixed budgets)",
  "budgetmix-hidden": "BudgetMix trained with hidden budgets (beyond the paper)",
  other: "other",
};

/** How a run was played: the policy on its own states, on an expert's states (teacher-forced), or after one forced
 * error on the expert's states (recover:J; see study-runs.ts for the config fields that mark them). */
export type RunKind = "policy" | "teacher-forced" | "perturbed";

export interface JsonEstimate {
  readonly value: number | null;
  readonly low: number | null;
  readonly high: number | null;
  readonly tasks: number;
  /** Observations behind the estimate (episodes, turns or pairs). */
  readonly n: number;
}

/** How a study's model came to be, carried as data from the study's plan into the report (`budgetrl reproduce`);
 * a report over any stored runs (`budgetrl report`) has none. */
export interface StudyModelSource {
  /** The model's policy as data; its label is the policy its runs store. */
  readonly policy: PolicySpec;
  /** sft: fine-tuned here on demonstrations; served: evaluated as a server serves it, not trained here; base-model:
   * a training service's base model, sampled as it is; rl: an RL run of the study. */
  readonly origin: "sft" | "served" | "base-model" | "rl";
  /** The same in words, with what sets it apart (steps, trainer, estimator and budgets). */
  readonly made: string;
}

/** Where a study's models come from and where it trains, for the report's header (`budgetrl reproduce`). */
export interface StudySetup {
  /** The base models, in words. */
  readonly base: string;
  /** The RL runs' trainer, in words. */
  readonly trainer: string;
  /** Stages the study left out, each with why. */
  readonly skipped: readonly string[];
}

export interface StudyModel {
  /** Display name (unique): the --model name, or the policy spec. */
  readonly name: string;
  readonly role: ModelRole;
  /** Where the role came from: given (--role, or a study's plan), or none (then the role is "other"). */
  readonly roleSource: "given" | "none";
  /** What the model is, when a study made it (null in a report over runs). */
  readonly source: StudyModelSource | null;
  /** What the model is: its role and its policies, in words. */
  readonly description: string;
  readonly policies: readonly string[];
  readonly runs: readonly string[];
  /** Training runs (--train) attached to this model. */
  readonly training: readonly string[];
}

export interface StudyRun {
  readonly id: string;
  readonly model: string;
  readonly env: string;
  /** Env with its options ("hanoi disks=4"): tasks of different variants are different tasks. */
  readonly variant: string;
  readonly mode: string;
  readonly scope: string;
  readonly protocol: string;
  readonly kind: RunKind;
  readonly perturbTurn: number | null;
  readonly policy: string;
  readonly seed: number;
  readonly tasks: number;
  readonly samples: number;
  readonly budgets: readonly string[];
  readonly ks: readonly number[];
  readonly episodes: number;
  readonly status: string;
  readonly createdAt: string;
  readonly codeVersion: string;
  /** The run's stored config, as written. */
  readonly config: Json;
}

export interface StudyPassTable {
  readonly model: string;
  readonly variant: string;
  readonly env: string;
  readonly mode: string;
  readonly runs: readonly string[];
  readonly tasks: number;
  readonly minSamples: number;
  readonly ks: readonly number[];
  readonly budgets: readonly string[];
  /** cells[i][j]: K = ks[i], T = budgets[j]. */
  readonly cells: readonly (readonly JsonEstimate[])[];
  readonly auc: readonly (JsonEstimate | null)[];
}

export interface StudyBudgetTable {
  readonly variant: string;
  readonly budgets: readonly string[];
  readonly k: number | null;
  readonly rows: readonly {
    readonly model: string;
    readonly mode: string;
    readonly pass1: readonly (JsonEstimate | null)[];
    readonly passK: readonly (JsonEstimate | null)[];
  }[];
}

/** Invalid replies beside the budget table: per (model, budget mode), the share of the policy's own turns whose
 * reply could not be parsed or was not a valid action, at each budget of the table (metrics/invalid-replies.ts). */
export interface StudyInvalidTable {
  readonly variant: string;
  readonly budgets: readonly string[];
  readonly rows: readonly {
    readonly model: string;
    readonly mode: string;
    readonly rates: readonly (JsonEstimate | null)[];
  }[];
}

export interface StudyStepQuality {
  readonly model: string;
  readonly env: string;
  readonly mode: string;
  readonly source: "self" | "teacher-forced";
  readonly overall: JsonEstimate;
  readonly byTurn: readonly { readonly turn: number; readonly estimate: JsonEstimate }[];
  readonly byTurnsLeft: readonly { readonly turnsLeft: number; readonly estimate: JsonEstimate }[];
  readonly byBudget: readonly { readonly budget: string; readonly estimate: JsonEstimate }[];
  readonly byBudgetAndTurnsLeft: readonly {
    readonly budget: string;
    readonly turnsLeft: number;
    readonly estimate: JsonEstimate;
  }[];
}

export interface StudyRecoveryCells {
  readonly budget: string;
  readonly clean: JsonEstimate;
  readonly anyError: JsonEstimate;
  readonly errorRate: JsonEstimate;
  readonly byFirstError: readonly { readonly turn: number; readonly estimate: JsonEstimate }[];
}

export interface StudyRecovery {
  readonly model: string;
  readonly env: string;
  readonly mode: string;
  readonly perBudget: readonly StudyRecoveryCells[];
  readonly pooled: StudyRecoveryCells;
}

/** Which recover:J run of which model. */
export interface PerturbationRunKey {
  readonly model: string;
  readonly env: string;
  readonly mode: string;
  readonly run: string;
  readonly perturbTurn: number;
}

/** Success after one error forced at turn j on the expert's states (the same states for every model), per budget
 * and pooled ("pooled"), with the episodes left out (the expert finished before j; nothing could be forced). */
export interface StudyPerturbation extends PerturbationRunKey {
  readonly cells: readonly { readonly budget: string; readonly recovery: JsonEstimate; readonly episodes: number }[];
  readonly excluded: { readonly notReached: number; readonly notForced: number };
  /** Why the run has no usable episode, when it has none. */
  readonly problem: string | null;
}

/** A horizon bin: what it holds (its label, and its smallest and largest optimal length or ratio T / length, over
 * every model of its env) and the success of the tasks in it (metrics/horizon-bins.ts). */
export interface StudyHorizonBin {
  readonly label: string;
  readonly low: number;
  readonly high: number;
  readonly estimate: JsonEstimate;
}

export interface StudyHorizon {
  readonly model: string;
  readonly env: string;
  readonly mode: string;
  readonly byLength: readonly { readonly budget: string; readonly bins: readonly StudyHorizonBin[] }[];
  readonly byRatio: readonly StudyHorizonBin[];
  readonly unknown: number;
}

export interface StudyTraining {
  readonly name: string;
  readonly dir: string;
  readonly model: string | null;
  readonly config: Json | null;
  readonly steps: readonly {
    readonly step: number;
    readonly reward: number | null;
    readonly success: number | null;
    readonly turns: number | null;
    readonly entropy: number | null;
    readonly kl: number | null;
  }[];
  readonly evals: readonly {
    readonly step: number;
    readonly run: string;
    readonly budget: string;
    readonly estimate: JsonEstimate;
  }[];
  /** Held-out tasks that also appeared among the training tasks (by task id), and study runs' tasks that did. */
  readonly overlap: {
    readonly trainingTasks: number | null;
    readonly heldOutTasks: number;
    readonly heldOutSeenInTraining: number | null;
    readonly studyRuns: readonly { readonly run: string; readonly tasks: number; readonly seenInTraining: number }[];
  };
  readonly notes: readonly string[];
}

/** One stored episode of a model, to show what it actually replied (replies are untrusted text). */
export interface StudyExample extends Omit<ExampleEpisode, "taskIndex"> {
  readonly model: string;
  readonly run: string;
  readonly variant: string;
  /** Replies longer than EXAMPLE_REPLY_CHARS are cut (the store keeps them whole). */
  readonly turns: readonly ExampleTurn[];
}

export const EXAMPLE_REPLY_CHARS = 400;

export type Verdict = "supported" | "not supported" | "inconclusive" | "no data";

export interface StudyComparison {
  /** What is compared, in words ("Pass@(1,25%)", "step quality", ...). */
  readonly metric: string;
  readonly a: string;
  readonly b: string;
  readonly scope: string;
  readonly mode: string;
  /** Mean of a, mean of b and a - b on the shared tasks. */
  readonly meanA: JsonEstimate;
  readonly meanB: JsonEstimate;
  readonly difference: JsonEstimate;
  readonly direction: DifferenceDirection;
  /** The relative view, mean(a) / mean(b) - 1 on the shared tasks (comparisons of success rates only). */
  readonly relative?: JsonEstimate;
  /** What kind of statistic `difference` is: a paired difference a - b, or a difference of two such differences
   * (then meanA and meanB are the two differences). */
  readonly statistic?: "difference" | "difference of differences";
}

export const FINDING_IDS = ["rl-budgets", "recovery-horizon", "process", "budgetmix", "hidden-budget"] as const;
export type FindingId = (typeof FINDING_IDS)[number];

export interface StudyFinding {
  readonly id: FindingId;
  readonly title: string;
  /** The claim as the paper states it (or the question, beyond the paper). */
  readonly claim: string;
  readonly verdict: Verdict;
  /** One paragraph with the numbers. */
  readonly summary: string;
  readonly scopes: readonly {
    readonly scope: string;
    readonly verdict: Verdict;
    readonly text: string;
    readonly comparisons: readonly StudyComparison[];
  }[];
}

export interface StudyReport {
  readonly version: typeof STUDY_REPORT_VERSION;
  readonly title: string;
  readonly generatedAt: string;
  readonly store: string;
  readonly codeVersion: string;
  readonly settings: { readonly bootstrap: number; readonly seed: number; readonly level: number };
  /** A study's model sources and trainer (null in a report over runs). */
  readonly setup: StudySetup | null;
  readonly models: readonly StudyModel[];
  readonly runs: readonly StudyRun[];
  readonly passTables: readonly StudyPassTable[];
  readonly budgetTables: readonly StudyBudgetTable[];
  /** One per budget table, same variant, rows and budgets. */
  readonly invalidReplies: readonly StudyInvalidTable[];
  readonly stepQuality: readonly StudyStepQuality[];
  readonly recovery: readonly StudyRecovery[];
  readonly perturbation: readonly StudyPerturbation[];
  readonly horizon: readonly StudyHorizon[];
  readonly training: readonly StudyTraining[];
  /** A failed episode of each model at its tightest announced budget (else any), to read its replies. */
  readonly examples: readonly StudyExample[];
  readonly findings: readonly StudyFinding[];
  /** Things a reader should know (runs left out, pairings that failed, ...). */
  readonly notes: readonly string[];
}

const finite = (value: number): number | null => (Number.isFinite(value) ? value : null);

/** An estimate or a Pass@(K,T) cell in its JSON form (NaN -> null). */
export function jsonEstimate(estimate: Estimate | PassCell): JsonEstimate {
  return {
    value: finite(estimate.value),
    low: finite(estimate.low),
    high: finite(estimate.high),
    tasks: estimate.tasks,
    n: "n" in estimate ? estimate.n : estimate.tasks,
  };
}
