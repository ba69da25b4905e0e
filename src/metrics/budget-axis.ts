// Ordering budgets on one axis for curves and areas: "25%" sits at x = 0.25 (a fraction of each task's
// reference budget), "1.5x" at x = 1.5 (a multiple of its optimal length), "8" at x = 8 turns. A curve mixes only
// one kind; mixing gives no axis (null). Lists that mix kinds are ordered by kind, then by size (orderBudgets).
import { budgetSize, type BudgetSpec } from "../core/budget.js";

const KIND_RANK: Readonly<Record<BudgetSpec["kind"], number>> = { fraction: 0, multiple: 1, turns: 2 };

export interface BudgetPoint {
  readonly label: string;
  readonly x: number;
}

/** Budgets with their x positions, sorted by x; null when fractions and absolute turns are mixed. */
export function budgetAxis(budgets: readonly BudgetSpec[]): BudgetPoint[] | null {
  if (new Set(budgets.map((spec) => spec.kind)).size > 1) return null;
  return budgets.map((spec) => ({ label: spec.label, x: budgetSize(spec) })).sort((a, b) => a.x - b.x);
}

/** The distinct budgets (one per label, the first seen) in axis order: fractions ("25%" < "50%" < "100%"), then
 * multiples, then absolute turns, each by size; budgets of one size keep the order they came in. */
export function orderBudgets(budgets: Iterable<BudgetSpec>): BudgetSpec[] {
  const distinct = new Map<string, BudgetSpec>();
  for (const spec of budgets) if (!distinct.has(spec.label)) distinct.set(spec.label, spec);
  return [...distinct.values()].sort((a, b) => KIND_RANK[a.kind] - KIND_RANK[b.kind] || budgetSize(a) - budgetSize(b));
}
