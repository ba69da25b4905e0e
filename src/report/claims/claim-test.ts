// The shape every claim's test has: the claim in the paper's words, its rule in words (with the plan's numbers),
// the measures it reads (each deciding, or shown for context), and the verdict from their outcomes. A claim's test
// is pure: the same plan and comparisons give the same verdict, which is how the sensitivity table re-reads a claim
// under other margins and budgets (findings.ts).
import type { ClaimPlan } from "../analysis-plan.js";
import { isRead } from "../effect-outcome.js";
import type { Measure } from "../finding-measures.js";
import type { StudyComparison, Verdict } from "../study-model.js";

export interface PlannedMeasure {
  /** The measure's key within its claim ("generous", "step 1.25x", ...). */
  readonly key: string;
  readonly measure: Measure;
  /** The budget mode of its statistics. */
  readonly mode: "announced" | "hidden";
  /** Whether the verdict reads it (else it is shown for context). */
  readonly decides: boolean;
}

/** The comparisons of one scope, by key. */
export type Comparisons = ReadonlyMap<string, StudyComparison>;

export interface ClaimTest<Plan extends ClaimPlan> {
  readonly title: string;
  /** The claim as the paper words it (or the question, beyond the paper). */
  readonly claim: string;
  /** The statistic and the rule, in words, with the plan's budgets and margin. */
  statistic(plan: Plan): string;
  rule(plan: Plan): string;
  /** What it reads, given the budgets its envs share (axis order). */
  measures(plan: Plan, budgets: readonly string[]): readonly PlannedMeasure[];
  verdict(plan: Plan, comparisons: Comparisons): Verdict;
}

/** Pass@1 a - b at each budget, in a budget mode, keyed by `key(budget)`: every one decides. */
export function passMeasures(
  budgets: readonly string[],
  mode: "announced" | "hidden",
  key: (budget: string) => string,
): PlannedMeasure[] {
  return budgets.map((budget) => ({
    key: key(budget),
    measure: {
      name: `Pass@1 at ${budget}${mode === "hidden" ? " (hidden)" : ""}`,
      contrasts: [{ kind: "difference", statistic: { kind: "pass", mode, budget } }],
    },
    mode,
    decides: true,
  }));
}

/** "3 points" from a fraction. */
export const pointsText = (fraction: number): string => `${+(100 * fraction).toFixed(2)} points`;

/** The comparisons whose key starts with `prefix` that a verdict reads (cannot move, tied and no data left out). */
export function measuredOutcomes(comparisons: Comparisons, prefix: string): StudyComparison[] {
  return [...comparisons.values()].filter(
    (comparison) => comparison.key.startsWith(prefix) && isRead(comparison.outcome),
  );
}
