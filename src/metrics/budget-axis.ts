// Ordering budgets on one axis for curves and areas: "25%" sits at x = 0.25 (a fraction of each task's
// reference budget), "8" at x = 8 turns. A curve mixes only one kind; mixing gives no axis (null).
import { budgetSize, type BudgetSpec } from "../core/budget.js";

export interface BudgetPoint {
  readonly label: string;
  readonly x: number;
}

/** Budgets with their x positions, sorted by x; null when fractions and absolute turns are mixed. */
export function budgetAxis(budgets: readonly BudgetSpec[]): BudgetPoint[] | null {
  if (new Set(budgets.map((spec) => spec.kind)).size > 1) return null;
  return budgets.map((spec) => ({ label: spec.label, x: budgetSize(spec) })).sort((a, b) => a.x - b.x);
}
