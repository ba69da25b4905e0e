// Ordering budgets on one axis for curves and areas: "25%" sits at x = 0.25 (a fraction of each task's
// reference budget), "1.5x" at x = 1.5 (a multiple of its optimal length), "8" at x = 8 turns. A curve mixes only
// one kind; mixing gives no axis (null).
import { budgetSize, isBudgetProblem, readBudgetSpec, type BudgetSpec } from "../core/budget.js";

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

/** Budget labels in axis order ("25%" < "50%" < "100%"; then multiples, then absolute turns, each by size); labels
 * that are not budgets keep their order at the end. */
export function orderBudgetLabels(labels: Iterable<string>): string[] {
  const keyed = [...new Set(labels)].map((label, position) => {
    const spec = readBudgetSpec(label);
    return {
      label,
      position,
      rank: isBudgetProblem(spec) ? 3 : KIND_RANK[spec.kind],
      size: isBudgetProblem(spec) ? 0 : budgetSize(spec),
    };
  });
  return keyed
    .sort((a, b) => a.rank - b.rank || a.size - b.size || a.position - b.position)
    .map((entry) => entry.label);
}
