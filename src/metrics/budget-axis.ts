// Ordering budgets on one axis for curves and areas: "25%" sits at x = 0.25 (a fraction of each task's
// reference budget), "8" at x = 8 turns. A curve mixes only one kind; mixing gives no axis (null).
import { parseBudgetSpec } from "../core/budget.js";

export interface BudgetPoint {
  readonly label: string;
  readonly x: number;
}

/** Budget labels with their x positions, sorted by x; null when fractions and absolute turns are mixed. */
export function budgetAxis(labels: readonly string[]): BudgetPoint[] | null {
  const specs = labels.map((label) => parseBudgetSpec(label));
  const fractions = specs.filter((spec) => spec.kind === "fraction").length;
  if (fractions !== 0 && fractions !== specs.length) return null;
  return specs
    .map((spec) => ({ label: spec.label, x: spec.kind === "turns" ? spec.turns : spec.numerator / spec.denominator }))
    .sort((a, b) => a.x - b.x);
}
