// Beyond the paper, "does BudgetMix help when the budget is hidden?": BudgetMix trained with hidden budgets -
// GRPO-Full, Pass@1 with the budget never stated, at every budget. Supported: higher somewhere (by at least the
// margin) and lower by more than the margin nowhere (non-inferiority); not supported: lower by more than the margin
// somewhere and higher nowhere; negligible: every difference inside +-margin; else inconclusive.
import type { ClaimPlan } from "../analysis-plan.js";
import type { Verdict } from "../study-model.js";
import { measuredOutcomes, passMeasures, pointsText, type ClaimTest } from "./claim-test.js";

type Plan = Extract<ClaimPlan, { id: "hidden-budget" }>;

export const hiddenBudgetClaim: ClaimTest<Plan> = {
  title: "Beyond the paper: does BudgetMix help when the budget is hidden?",
  claim:
    "With the budget never stated, BudgetMix trained on hidden budgets still beats GRPO-Full somewhere and loses nowhere.",
  statistic: (plan) => `${plan.a} - ${plan.b}, Pass@1 (hidden) at every budget`,
  rule: (plan) =>
    `supported: higher somewhere by at least ${pointsText(plan.margin)} and nowhere lower by more than ${pointsText(plan.margin)} (non-inferiority); not supported: lower by more than that somewhere and higher nowhere; negligible: every difference inside +-${pointsText(plan.margin)}`,
  measures: (_plan, budgets) => passMeasures(budgets, "hidden", (budget) => `pass ${budget}`),
  verdict: (_plan, comparisons): Verdict => {
    const every = measuredOutcomes(comparisons, "pass");
    if (every.length === 0) return "no data";
    const higher = every.some((comparison) => comparison.outcome === "higher");
    const inferior = every.some((comparison) => comparison.nonInferiority === "inferior");
    if (higher && every.every((comparison) => comparison.nonInferiority === "non-inferior")) return "supported";
    if (inferior && !higher) return "not supported";
    if (every.every((comparison) => comparison.outcome === "negligible")) return "negligible";
    return "inconclusive";
  },
};
