// Natural error recovery: how often an episode still succeeds after its first mistake.
// An episode's first error is the first turn j whose action was not in the oracle's optimal set (an
// unparseable reply included); episodes without one are "clean". Per budget label:
//   recovery(j)   = mean over tasks of c_t(j) / n_t(j)      n_t(j) episodes of task t with first error at j,
//                                                         c_t(j) of them successful within the budget
//   recovery(any) = the same over every episode with an error (any j): the recovery rate
//   clean         = success of the clean episodes (with a budget-aware oracle, ~1 by construction)
//   errorRate     = mean over tasks of the share of episodes with an error
// Intervals: percentile bootstrap over tasks (task-mean.ts). "pooled"
// repeats every cell over all budgets together. Budgets come in axis order (budget-axis.ts), shown by their labels.
// Edge cases: a budget with no erring episode has NaN recovery; only annotated episodes count (the store leaves
// out episodes without oracle annotations); policy errors never reach this function.
import type { FirstErrorCounts } from "../core/analysis-rows.js";
import type { BudgetSpec } from "../core/budget.js";
import { orderBudgets } from "./budget-axis.js";
import {
  addRatio,
  cellOf,
  ratioEstimate,
  ratiosPerTask,
  type Estimate,
  type IntervalOptions,
  type TaskRatios,
} from "./task-mean.js";

export interface RecoveryCells {
  /** Budget label, or "pooled" for every budget together. */
  readonly budget: string;
  readonly clean: Estimate;
  readonly anyError: Estimate;
  readonly errorRate: Estimate;
  readonly byFirstError: readonly { readonly turn: number; readonly estimate: Estimate }[];
}

export interface NaturalRecovery {
  readonly perBudget: readonly RecoveryCells[];
  readonly pooled: RecoveryCells;
}

interface Cells {
  clean: TaskRatios;
  anyError: TaskRatios;
  errorRate: TaskRatios;
  byFirstError: Map<number, TaskRatios>;
}

const emptyCells = (): Cells => ({
  clean: new Map(),
  anyError: new Map(),
  errorRate: new Map(),
  byFirstError: new Map(),
});

function add(cells: Cells, row: FirstErrorCounts): void {
  addRatio(cells.errorRate, row.taskIndex, row.firstError === null ? 0 : row.n, row.n);
  if (row.firstError === null) addRatio(cells.clean, row.taskIndex, row.c, row.n);
  else {
    addRatio(cells.anyError, row.taskIndex, row.c, row.n);
    addRatio(cellOf(cells.byFirstError, row.firstError), row.taskIndex, row.c, row.n);
  }
}

function summarise(budget: string, cells: Cells, options: IntervalOptions): RecoveryCells {
  return {
    budget,
    clean: ratioEstimate(cells.clean, options),
    anyError: ratioEstimate(cells.anyError, options),
    errorRate: ratioEstimate(cells.errorRate, options),
    byFirstError: [...cells.byFirstError.entries()]
      .sort((a, b) => a[0] - b[0])
      .map(([turn, cell]) => ({ turn, estimate: ratioEstimate(cell, options) })),
  };
}

export function naturalRecovery(rows: Iterable<FirstErrorCounts>, options: IntervalOptions = {}): NaturalRecovery {
  const pooled = emptyCells();
  const perBudget = new Map<string, Cells>();
  const budgets: BudgetSpec[] = [];
  for (const row of rows) {
    add(pooled, row);
    let cells = perBudget.get(row.budget.label);
    if (cells === undefined) {
      perBudget.set(row.budget.label, (cells = emptyCells()));
      budgets.push(row.budget);
    }
    add(cells, row);
  }
  return {
    perBudget: orderBudgets(budgets).map(({ label }) => summarise(label, perBudget.get(label)!, options)),
    pooled: summarise("pooled", pooled, options),
  };
}

/** Task -> success rate of its episodes that made an error (optionally under one budget only, by its label). */
export function recoveryPerTask(rows: Iterable<FirstErrorCounts>, budget?: string): Map<number, number> {
  const ratios: TaskRatios = new Map();
  for (const row of rows)
    if (row.firstError !== null && (budget === undefined || row.budget.label === budget))
      addRatio(ratios, row.taskIndex, row.c, row.n);
  return ratiosPerTask(ratios);
}
