// The study report's data model: one typed, JSON-serialisable object built from runs in a store (study-build.ts),
// rendered as HTML (html/) and as terminal tables (study-tables.ts). Numbers that could not be measured are
// null (never NaN), so the JSON reads back to the same object. Every estimate is a mean over tasks with a 95%
// percentile bootstrap interval over tasks; every comparison between models is a paired difference on shared
// tasks (metrics/paired-difference.ts).
import type { Json } from "../core/json.js";
import type { PolicySpec } from "../core/policy-spec.js";
import type { AnalysisPlan } from "./analysis-plan.js";
import type { FindingId, ModelRole } from "./roles.js";
import type { NonInferiority, Outcome } from "./effect-outcome.js";
import type { CrossedEstimate } from "../metrics/crossed-mean.js";
import type { Estimate } from "../metrics/task-mean.js";
import type { PassCell } from "../metrics/pass-at-kt.js";
import type { ExampleEpisode, ExampleTurn } from "../store/analysis-rows.js";

export const STUDY_REPORT_VERSION = 3;

export { FINDING_IDS, MODEL_ROLES, ROLE_NAMES, type FindingId, type ModelRole } from "./roles.js";

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
  /** Seeds behind the estimate, when it pools several. */
  readonly seeds?: number;
  /** An estimate over seeds and tasks: its variance's parts (metrics/crossed-mean.ts), what a design with more seeds
   * or more tasks would narrow (scripts/study-power.ts reads them). */
  readonly variance?: {
    readonly seeds: number | null;
    readonly tasks: number | null;
    readonly residual: number | null;
  };
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
    /** Per budget, each seed's Pass@1 and invalid replies (empty lists when the study has one seed). */
    readonly seeds: readonly (readonly StudySeedPoint[])[];
  }[];
}

/** One seed's Pass@1 of a budget table row at a budget, and its share of invalid replies there (seed-spread.ts). */
export interface StudySeedPoint {
  readonly seed: number;
  readonly pass1: number | null;
  readonly invalid: number | null;
}

/** A budget table row whose seeds' Pass@1 differ by more than twice the plan's smallest effect somewhere: where they
 * differ most (budget, spread, each seed's values), every budget where they differ that much, and a sentence. */
export interface StudySeedSpread {
  readonly variant: string;
  readonly model: string;
  readonly mode: string;
  readonly budget: string;
  readonly spread: number;
  readonly budgets: readonly string[];
  readonly points: readonly StudySeedPoint[];
  readonly text: string;
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

export const VERDICTS = ["supported", "negligible", "not supported", "inconclusive", "tied", "no data"] as const;
/** A claim's verdict: supported; negligible (the effect it predicts is smaller than the plan's smallest effect of
 * interest); not supported (the intervals say otherwise); inconclusive; tied (every deciding comparison gave the two
 * models the same value on every task: nothing either way); no data. */
export type Verdict = (typeof VERDICTS)[number];

export interface StudyComparison {
  /** The measure's key within its claim ("generous", "step 1.25x", ...). */
  readonly key: string;
  /** What is compared, in words ("Pass@1 at 3x", "gain at 3x minus gain at 1.25x", ...). */
  readonly metric: string;
  readonly a: string;
  readonly b: string;
  /** The envs it is read over ("vault", or "vault + thinice": each env weighing the same). */
  readonly scope: string;
  /** The seed it is read in, or null: pooled over the study's seeds. */
  readonly seed: number | null;
  readonly mode: string;
  /** Mean of a, mean of b and a - b on the shared tasks (for a difference of differences: the two gains and their
   * difference), with seeds-then-tasks intervals. */
  readonly meanA: JsonEstimate;
  readonly meanB: JsonEstimate;
  readonly difference: JsonEstimate;
  /** How the difference reads against the margin (effect-outcome.ts). */
  readonly outcome: Outcome;
  /** Non-inferiority with the margin (BudgetMix's claims). */
  readonly nonInferiority?: NonInferiority;
  readonly margin: number;
  /** The smallest difference this comparison could detect at 80% power (null without an interval). */
  readonly detectable: number | null;
  /** Whether the claim's verdict reads it (else it is context). */
  readonly decides: boolean;
  readonly statistic: "difference" | "difference of differences";
  /** Budgets left out because a statistic cannot move there ("vault 1.5x"). */
  readonly leftOut: readonly string[];
}

/** A claim read over one scope: some envs (one, or all of the claim's pooled) and one seed or all. */
export interface StudyFindingScope {
  readonly scope: string;
  readonly seed: number | null;
  readonly verdict: Verdict;
  readonly text: string;
  readonly comparisons: readonly StudyComparison[];
}

/** A claim decided over each half of the seeds alone (the halves the plan fixed before any run). It replicates when
 * both halves give the pooled verdict. */
export interface StudyReplication {
  readonly halves: readonly {
    readonly seeds: readonly number[];
    readonly verdict: Verdict;
    /** The claim read over each of its envs and pooled, over this half's seeds. */
    readonly scopes: readonly StudyFindingScope[];
  }[];
  readonly replicated: boolean;
  /** "replicated: each half gives supported (seeds 1, 2, 3 supported; seeds 4, 5, 6 supported)", or "does not
   * replicate: ..." with both halves' verdicts. */
  readonly text: string;
}

/** The verdict under a reasonable alternative to the plan (another budget, one env, half or twice the margin). */
export interface StudySensitivity {
  readonly alternative: string;
  readonly verdict: Verdict;
}

export interface StudyFinding {
  readonly id: FindingId;
  readonly title: string;
  /** The claim as the paper states it (or the question, beyond the paper). */
  readonly claim: string;
  /** The statistic and the rule the plan fixed, in words. */
  readonly statistic: string;
  readonly rule: string;
  readonly margin: number;
  /** The claim's verdict: where the plan decides it (pooled over seeds and the claim's envs). */
  readonly verdict: Verdict;
  /** The scope and seeds of that verdict, in words ("vault + thinice, seeds 1, 2, 3"). */
  readonly decidedBy: string;
  /** How the verdicts of the single seeds relate to it: "every seed agrees" (on each env and pooled), or the verdict
   * of each. */
  readonly seedAgreement: string;
  /** The plan's declared replication: the verdict decided over each half of the seeds alone (null: one seed). */
  readonly replication: StudyReplication | null;
  /** One paragraph with the numbers. */
  readonly summary: string;
  readonly scopes: readonly StudyFindingScope[];
  readonly sensitivity: readonly StudySensitivity[];
  /** What was left out and why (statistics that cannot move, missing roles). */
  readonly notes: readonly string[];
}

/** The range of a statistic on an env: the oracle's and the random policy's means on the held-out tasks, and
 * whether it may enter a verdict (they differ by the plan's minimum range). */
export interface StudyRange {
  readonly env: string;
  readonly statistic: string;
  readonly budget: string;
  readonly oracle: number | null;
  readonly random: number | null;
  readonly moves: boolean;
}

/** How an env's held-out tasks differ from its training tasks (demonstrations and RL), as a study made them. */
export interface StudyHeldOut {
  readonly env: string;
  /** What held-out tasks differ in from every training task: their structure, or only their content. */
  readonly by: "structure" | "content";
  /** What the env's structure is (what makes two tasks the same problem), in words. */
  readonly structure: string;
  /** Structures the env's generator can draw (null: it cannot say). */
  readonly distinctStructures: number | null;
  readonly tasks: number;
  /** Distinct structures among the held-out tasks. */
  readonly heldOutStructures: number;
  /** Per seed: its training tasks and their structures, and the held-out tasks whose structure one of them has. */
  readonly seeds: readonly {
    readonly seed: number;
    readonly trainingTasks: number;
    readonly trainingStructures: number;
    readonly seen: number;
  }[];
  /** The same in one sentence. */
  readonly statement: string;
  /** Pass@1 (announced) of each model at each budget on the held-out tasks whose structure its seed's training saw,
   * and on the others, every seed pooled (empty when the tasks are held out by structure: none is seen). */
  readonly split: readonly {
    readonly model: string;
    readonly budget: string;
    readonly seen: JsonEstimate;
    readonly unseen: JsonEstimate;
  }[];
}

/** The analysis plan the findings follow, with its hash and whether it was fixed before any result. */
export interface StudyPlanHeader {
  readonly plan: AnalysisPlan;
  readonly hash: string;
  /** When it was written (study.json), or null for a report over runs (the default plan for their envs). */
  readonly fixedAt: string | null;
  /** Set when the plan in use is not the one the study stored before its results (then the findings say so). */
  readonly changedAfterResults: string | null;
  /** Where the plan came from, in words. */
  readonly source: string;
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
  /** Rows of the budget tables whose seeds differ by more than twice the smallest effect (a collapse in some seeds). */
  readonly seedSpread: readonly StudySeedSpread[];
  readonly stepQuality: readonly StudyStepQuality[];
  readonly recovery: readonly StudyRecovery[];
  readonly perturbation: readonly StudyPerturbation[];
  readonly horizon: readonly StudyHorizon[];
  readonly training: readonly StudyTraining[];
  /** A failed episode of each model at its tightest announced budget (else any), to read its replies. */
  readonly examples: readonly StudyExample[];
  /** The analysis plan (null: a report older than plans). */
  readonly plan: StudyPlanHeader | null;
  /** The seeds the findings replicate over (one: a one-seed study or a report over runs). */
  readonly seeds: readonly number[];
  /** How each env's held-out tasks differ from its training tasks (a study's; empty in a report over runs). */
  readonly heldOut: readonly StudyHeldOut[];
  /** Each statistic's range on each env (empty when the oracle and random policy were not run). */
  readonly ranges: readonly StudyRange[];
  readonly findings: readonly StudyFinding[];
  /** Things a reader should know (runs left out, pairings that failed, ...). */
  readonly notes: readonly string[];
}

const finite = (value: number): number | null => (Number.isFinite(value) ? value : null);

/** An estimate or a Pass@(K,T) cell in its JSON form (NaN -> null). */
export function jsonEstimate(estimate: Estimate | PassCell | CrossedEstimate): JsonEstimate {
  return {
    value: finite(estimate.value),
    low: finite(estimate.low),
    high: finite(estimate.high),
    tasks: estimate.tasks,
    n: "n" in estimate ? estimate.n : estimate.tasks,
    ...("seeds" in estimate && estimate.seeds > 1 ? { seeds: estimate.seeds } : {}),
    ...("parts" in estimate
      ? {
          variance: {
            seeds: finite(estimate.parts.seeds),
            tasks: finite(estimate.parts.tasks),
            residual: finite(estimate.parts.residual),
          },
        }
      : {}),
  };
}
