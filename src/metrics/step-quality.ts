// Single-step decision quality: how often the policy's action is in the oracle's optimal set.
//   q_t(cell) = optimal_t(cell) / annotated_t(cell)           for task t, over its annotated turns in the cell
//   quality(cell) = mean over the tasks with a turn in the cell of q_t(cell)
// with a percentile bootstrap interval over tasks (task-mean.ts). Cells: overall, by turn index, by turns left
// in the budget (this turn included), by budget label, and by turns left within each budget label (pooled over
// budgets, turns left t mixes the first turns of a budget of t with later turns of larger budgets). Pass rows
// from states the policy reached itself, or from teacher-forced states (the expert's trajectory, with the
// policy's action recorded at each state): the formula is the same, the caller keeps the two apart. An unparseable or invalid reply counts as non-optimal (the store
// records optimal = false for it). Turns without an oracle annotation never reach this function.
// Edge cases: no annotated turn gives NaN estimates (tasks = 0); a task seen at one turn index only counts in
// that cell.
import type { StepCounts } from "../core/analysis-rows.js";
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

export interface StepQuality {
  readonly overall: Estimate;
  readonly byTurn: readonly { readonly turn: number; readonly estimate: Estimate }[];
  readonly byTurnsLeft: readonly { readonly turnsLeft: number; readonly estimate: Estimate }[];
  readonly byBudget: readonly { readonly budget: string; readonly estimate: Estimate }[];
  /** Turns left within each budget label: budgets on their axis, turns left ascending. */
  readonly byBudgetAndTurnsLeft: readonly {
    readonly budget: string;
    readonly turnsLeft: number;
    readonly estimate: Estimate;
  }[];
}

export function stepQuality(rows: Iterable<StepCounts>, options: IntervalOptions = {}): StepQuality {
  const overall: TaskRatios = new Map();
  const byTurn = new Map<number, TaskRatios>();
  const byTurnsLeft = new Map<number, TaskRatios>();
  const byBudget = new Map<string, TaskRatios>();
  const byBudgetAndTurnsLeft = new Map<string, Map<number, TaskRatios>>();
  const budgets: BudgetSpec[] = [];
  for (const row of rows) {
    const { label } = row.budget;
    budgets.push(row.budget);
    addRatio(overall, row.taskIndex, row.optimal, row.total);
    addRatio(cellOf(byTurn, row.turn), row.taskIndex, row.optimal, row.total);
    addRatio(cellOf(byTurnsLeft, row.turnsLeft), row.taskIndex, row.optimal, row.total);
    addRatio(cellOf(byBudget, label), row.taskIndex, row.optimal, row.total);
    const budgetCells = byBudgetAndTurnsLeft.get(label) ?? new Map<number, TaskRatios>();
    byBudgetAndTurnsLeft.set(label, budgetCells);
    addRatio(cellOf(budgetCells, row.turnsLeft), row.taskIndex, row.optimal, row.total);
  }
  const ordered = orderBudgets(budgets).map((spec) => spec.label);
  const numeric = <Key extends number>(cells: Map<Key, TaskRatios>) =>
    [...cells.entries()].sort((a, b) => a[0] - b[0]).map(([key, cell]) => [key, ratioEstimate(cell, options)] as const);
  return {
    overall: ratioEstimate(overall, options),
    byTurn: numeric(byTurn).map(([turn, estimate]) => ({ turn, estimate })),
    byTurnsLeft: numeric(byTurnsLeft).map(([turnsLeft, estimate]) => ({ turnsLeft, estimate })),
    byBudget: ordered.map((budget) => ({
      budget,
      estimate: ratioEstimate(byBudget.get(budget)!, options),
    })),
    byBudgetAndTurnsLeft: ordered.flatMap((budget) =>
      numeric(byBudgetAndTurnsLeft.get(budget)!).map(([turnsLeft, estimate]) => ({
        budget,
        turnsLeft,
        estimate,
      })),
    ),
  };
}

/** Task -> fraction of optimal actions over all its annotated turns (the per-task values paired comparisons use). */
export function stepQualityPerTask(rows: Iterable<StepCounts>): Map<number, number> {
  const overall: TaskRatios = new Map();
  for (const row of rows) addRatio(overall, row.taskIndex, row.optimal, row.total);
  return ratiosPerTask(overall);
}
