// Pass@(K,T): success with K sampled trajectories, each allowed at most T turns.
//   Pass@(K,T) = mean over tasks of pass@K(n_t,T, c_t,T)
// where n_t,T episodes of task t ran under budget T and c_t,T succeeded (pass-at-k.ts gives pass@K).
// Intervals: percentile bootstrap over tasks (bootstrap.ts), shared resamples across all cells. AUC: the
// normalised area under each K's curve over the budget axis (auc.ts), with its own bootstrap interval.
// A cell averages the tasks that have at least K samples at every budget, so every curve uses one task set. Counts of
// one (task, budget) in several rows (several runs of one model, as a study's seeds) are added up first.
import { budgetSize, type BudgetSpec } from "../core/budget.js";
import type { FirstSuccess, OutcomeCounts } from "../core/outcome.js";
import { normalisedArea } from "./auc.js";
import { budgetAxis } from "./budget-axis.js";
import { bootstrapIndices, bootstrapInterval, DEFAULT_RESAMPLES } from "./bootstrap.js";
import { passAtK } from "./pass-at-k.js";

export interface PassCell {
  readonly value: number;
  readonly low: number;
  readonly high: number;
  readonly tasks: number;
}

export interface PassAtKTTable {
  readonly ks: readonly number[];
  /** The budgets of the columns in axis order (or as given when the axis is mixed); shown by their labels. */
  readonly budgets: readonly BudgetSpec[];
  /** cells[i][j]: K = ks[i], T = budgets[j]. */
  readonly cells: readonly (readonly PassCell[])[];
  /** Area under the curve of each K (null when budgets mix fractions and absolute turns). */
  readonly auc: readonly (PassCell | null)[];
  readonly tasks: number;
  /** Smallest number of samples of any (task, budget). */
  readonly minSamples: number;
  readonly bootstrap: number;
}

export interface PassAtKTOptions {
  readonly ks: readonly number[];
  /** The budgets of the table's columns (counts carry their labels). */
  readonly budgets: readonly BudgetSpec[];
  /** Bootstrap resamples (0 disables intervals). Default 1000. */
  readonly bootstrap?: number;
  readonly seed?: number;
  readonly level?: number;
}

export function passAtKT(counts: readonly OutcomeCounts[], options: PassAtKTOptions): PassAtKTTable {
  const axis = budgetAxis(options.budgets);
  // In the axis's order (a stable sort by size, as budgetAxis sorts its points).
  const budgets = axis === null ? options.budgets : [...options.budgets].sort((a, b) => budgetSize(a) - budgetSize(b));
  const labels = budgets.map((spec) => spec.label);
  const byTask = new Map<number, Map<string, OutcomeCounts>>();
  for (const entry of counts) {
    let row = byTask.get(entry.taskIndex);
    if (row === undefined) byTask.set(entry.taskIndex, (row = new Map()));
    // Counts of one (task, budget) from several rows (several runs, e.g. a study's seeds pooled) add up.
    const known = row.get(entry.budget);
    row.set(entry.budget, known === undefined ? entry : { ...known, n: known.n + entry.n, c: known.c + entry.c });
  }
  const taskIndices = [...byTask.keys()].sort((a, b) => a - b);
  let minSamples = Infinity;
  for (const row of byTask.values()) for (const entry of row.values()) minSamples = Math.min(minSamples, entry.n);
  const resamples = options.bootstrap ?? DEFAULT_RESAMPLES;
  const cells: PassCell[][] = [];
  const auc: (PassCell | null)[] = [];
  for (const k of options.ks) {
    // The tasks with at least k samples at every budget.
    const eligible = taskIndices.filter((task) => labels.every((label) => (byTask.get(task)?.get(label)?.n ?? 0) >= k));
    const indices = bootstrapIndices(eligible.length, eligible.length === 0 ? 0 : resamples, (options.seed ?? 0) + k);
    const perBudget = labels.map((label) => {
      const values = new Float64Array(eligible.length);
      eligible.forEach((task, i) => {
        const entry = byTask.get(task)?.get(label)!;
        values[i] = passAtK(entry.n, entry.c, k);
      });
      return values;
    });
    cells.push(perBudget.map((values) => summarise(values, indices, options.level)));
    if (axis === null || eligible.length === 0) auc.push(null);
    else {
      const xs = axis.map((point) => point.x);
      const perTask = new Float64Array(eligible.length);
      for (let i = 0; i < eligible.length; i++)
        perTask[i] = normalisedArea(
          xs,
          perBudget.map((values) => values[i]!),
        );
      auc.push(summarise(perTask, indices, options.level));
    }
  }
  return {
    ks: options.ks,
    budgets,
    cells,
    auc,
    tasks: taskIndices.length,
    minSamples: Number.isFinite(minSamples) ? minSamples : 0,
    bootstrap: resamples,
  };
}

function summarise(values: Float64Array, indices: Int32Array, level?: number): PassCell {
  if (values.length === 0) return { value: NaN, low: NaN, high: NaN, tasks: 0 };
  let sum = 0;
  for (const value of values) sum += value;
  const interval = bootstrapInterval(values, indices, level);
  return { value: sum / values.length, low: interval.low, high: interval.high, tasks: values.length };
}

/**
 * Protocol (b): from one run at T_max with a hidden budget, success within T is success by turn T.
 * `turnsFor(taskIndex, budget)` resolves a budget to that task's number of turns.
 */
export function countsWithinBudgets(
  episodes: readonly FirstSuccess[],
  budgets: readonly BudgetSpec[],
  turnsFor: (taskIndex: number, budget: BudgetSpec) => number,
): OutcomeCounts[] {
  const perTask = new Map<number, (number | null)[]>();
  for (const episode of episodes) {
    let list = perTask.get(episode.taskIndex);
    if (list === undefined) perTask.set(episode.taskIndex, (list = []));
    list.push(episode.successTurn);
  }
  const out: OutcomeCounts[] = [];
  for (const [taskIndex, turns] of perTask) {
    for (const budget of budgets) {
      const limit = turnsFor(taskIndex, budget);
      const c = turns.filter((turn) => turn !== null && turn <= limit).length;
      out.push({ taskIndex, budget: budget.label, n: turns.length, c });
    }
  }
  return out;
}
