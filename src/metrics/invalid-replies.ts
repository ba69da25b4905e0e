// Invalid replies: how often a policy's reply could not be played, beside how often it succeeded. A reply is
// invalid when it could not be parsed or named an action the env refused (the turn's `invalid` flag); such a
// turn costs a turn of the budget and does nothing, so a high rate explains a collapse that Pass@(K,T) only shows.
//   rate_t(T)  = invalid_t(T) / turns_t(T)   the policy's own turns in task t's finished episodes under budget T
//   rate(T)    = (1 / |S|) * sum_{t in S} rate_t(T), S the tasks with at least one such turn
// Every task weighs the same, as in Pass@(K,T); the interval is the percentile bootstrap over tasks
// (task-mean.ts), one stream per call; `n` counts turns. Budgets come in axis order (budget-axis.ts).
// Edge cases: turns an intervention played (teacher-forced, perturbed) are not in the rows (the readers leave
// them out); a budget without turns gets no entry; no rows give no entries.
import type { InvalidCounts } from "../core/analysis-rows.js";
import type { BudgetSpec } from "../core/budget.js";
import { orderBudgets } from "./budget-axis.js";
import { addRatio, cellOf, ratioEstimate, type Estimate, type IntervalOptions, type TaskRatios } from "./task-mean.js";

export interface InvalidRate {
  readonly budget: string;
  readonly estimate: Estimate;
}

/** The share of the policy's turns with an invalid reply, per budget, averaged over tasks. */
export function invalidReplies(rows: Iterable<InvalidCounts>, options: IntervalOptions = {}): InvalidRate[] {
  const byBudget = new Map<string, TaskRatios>();
  const budgets: BudgetSpec[] = [];
  for (const row of rows) {
    if (row.turns === 0) continue;
    addRatio(cellOf(byBudget, row.budget.label), row.taskIndex, row.invalid, row.turns);
    budgets.push(row.budget);
  }
  return orderBudgets(budgets).map(({ label }) => ({
    budget: label,
    estimate: ratioEstimate(byBudget.get(label)!, options),
  }));
}
