// Recovery from a forced error on shared states (intervention recover:J): the expert plays turns 1..J-1, one
// random non-optimal action is forced at turn J, then the policy plays on within the budget. The states up to
// the error do not depend on the policy, so two models run with the same seeds are scored on exactly the same
// perturbed states and compared paired per task (paired-difference.ts), never conditioned on each surviving to J.
//   usable episode   = one whose turn J was forced (it reached turn J, and a non-optimal valid action existed)
//   r_t(J, budget)   = mean success over task t's usable episodes
//   recovery(J, b)   = mean over tasks of r_t(J, b), with a percentile bootstrap interval over tasks
// Cells: per (J, budget) and per J over every budget ("pooled"), budgets in axis order (budget-axis.ts). Episodes
// that cannot be used are counted: not reached (the expert finished the task before J) and not forced (every valid
// action at J was optimal); both depend only on the task, the budget and the seed, so they are the same for every
// model.
// Edge cases: no usable episode gives NaN estimates.
import type { EpisodeOutcome } from "../core/analysis-rows.js";
import type { BudgetSpec } from "../core/budget.js";
import { orderBudgets } from "./budget-axis.js";
import { estimateFrom, orderedValues, resampledMeans, type Estimate, type IntervalOptions } from "./task-mean.js";
import { DEFAULT_RESAMPLES } from "./bootstrap.js";

/** One episode of a recover:J run. */
export interface RecoveryEpisode {
  /** The turn J at which the error was forced (1-based). */
  readonly perturbTurn: number;
  readonly outcome: EpisodeOutcome;
  /** Whether turn J carried a forced action. */
  readonly forced: boolean;
}

export interface RecoveryCell {
  readonly perturbTurn: number;
  /** Budget label, or "pooled". */
  readonly budget: string;
  /** Success after the forced error, mean over tasks. */
  readonly recovery: Estimate;
  readonly episodes: number;
}

export interface PerturbationRecovery {
  readonly cells: readonly RecoveryCell[];
  readonly excluded: { readonly notReached: number; readonly notForced: number };
}

type Status = "usable" | "not-reached" | "not-forced";

export function recoveryStatus(episode: RecoveryEpisode): Status {
  if (episode.forced) return "usable";
  return episode.outcome.turnsUsed < episode.perturbTurn ? "not-reached" : "not-forced";
}

interface Sums {
  success: number;
  episodes: number;
}

/** Episodes added one at a time (streamed from a store, they need not sit in memory). */
export interface RecoveryTally {
  add(episode: RecoveryEpisode): void;
  result(options?: IntervalOptions): PerturbationRecovery;
  /** Task -> success after the error, over every usable episode (all turns J pooled; all budgets, or one). */
  perTask(budget?: string): Map<number, number>;
}

const key = (turn: number, budget: string): string => `${turn}\u0000${budget}`;

export function recoveryTally(): RecoveryTally {
  const cells = new Map<string, { perturbTurn: number; budget: string; tasks: Map<number, Sums> }>();
  const pooled = new Map<string, Map<number, Sums>>();
  const budgets: BudgetSpec[] = [];
  const excluded = { notReached: 0, notForced: 0 };
  const count = (tasks: Map<number, Sums>, task: number, success: boolean): void => {
    let sums = tasks.get(task);
    if (sums === undefined) tasks.set(task, (sums = { success: 0, episodes: 0 }));
    sums.success += success ? 1 : 0;
    sums.episodes += 1;
  };
  return {
    add(episode) {
      const status = recoveryStatus(episode);
      if (status === "not-reached") excluded.notReached++;
      if (status === "not-forced") excluded.notForced++;
      if (status !== "usable") return;
      const { taskIndex, budget, success } = episode.outcome;
      if (!pooled.has(budget.label)) budgets.push(budget);
      for (const label of [budget.label, "pooled"]) {
        let cell = cells.get(key(episode.perturbTurn, label));
        if (cell === undefined)
          cells.set(
            key(episode.perturbTurn, label),
            (cell = { perturbTurn: episode.perturbTurn, budget: label, tasks: new Map() }),
          );
        count(cell.tasks, taskIndex, success);
      }
      for (const label of [budget.label, "pooled"]) {
        if (!pooled.has(label)) pooled.set(label, new Map());
        count(pooled.get(label)!, taskIndex, success);
      }
    },
    result(options = {}) {
      const order = orderBudgets(budgets).map((spec) => spec.label);
      const rank = (budget: string): number => (budget === "pooled" ? order.length : order.indexOf(budget));
      const summarised = [...cells.values()]
        .sort((a, b) => a.perturbTurn - b.perturbTurn || rank(a.budget) - rank(b.budget))
        .map((cell) => summariseCell(cell.perturbTurn, cell.budget, cell.tasks, options));
      return { cells: summarised, excluded: { ...excluded } };
    },
    perTask: (budget = "pooled") =>
      new Map([...(pooled.get(budget) ?? [])].map(([task, sums]) => [task, sums.success / sums.episodes])),
  };
}

export function perturbationRecovery(
  episodes: Iterable<RecoveryEpisode>,
  options: IntervalOptions = {},
): PerturbationRecovery {
  const tally = recoveryTally();
  for (const episode of episodes) tally.add(episode);
  return tally.result(options);
}

function summariseCell(
  perturbTurn: number,
  budget: string,
  tasks: Map<number, Sums>,
  options: IntervalOptions,
): RecoveryCell {
  const values = orderedValues(new Map([...tasks].map(([task, sums]) => [task, sums.success / sums.episodes])));
  const episodes = [...tasks.values()].reduce((sum, sums) => sum + sums.episodes, 0);
  const [means] = resampledMeans([values], options.bootstrap ?? DEFAULT_RESAMPLES, options.seed ?? 0) as [Float64Array];
  return { perturbTurn, budget, recovery: estimateFrom(values, means, episodes, options.level), episodes };
}
