// Finding 4, "BudgetMix is robust across budgets", as the rule is written: BudgetMix - GRPO-Full, Pass@1 with the
// budget announced, at every budget: higher at the tight budget (by at least the margin) and lower nowhere, "lower"
// read as non-inferiority with the plan's margin (an interval whose low end is above -margin is not lower).
// Supported: higher at the tight budget and non-inferior at every budget; not supported: inferior somewhere (the
// interval wholly below -margin) or lower at the tight budget; negligible: the tight difference inside +-margin and
// nothing inferior; else inconclusive.
import type { ClaimPlan } from "../analysis-plan.js";
import { isRead } from "../effect-outcome.js";
import type { Verdict } from "../study-model.js";
import { measuredOutcomes, passMeasures, pointsText, type ClaimTest } from "./claim-test.js";

type Plan = Extract<ClaimPlan, { id: "budgetmix" }>;

export const budgetmixClaim: ClaimTest<Plan> = {
  title: "BudgetMix is robust across budgets",
  claim:
    "Training over a mix of budgets, stated in the prompt, raises Pass@1 over GRPO-Full at the tight budget and does not lower it at any budget.",
  statistic: (plan) => `${plan.a} - ${plan.b}, Pass@1 (announced) at every budget`,
  rule: (plan) =>
    `supported: higher at ${plan.tight} by at least ${pointsText(plan.margin)} and at no budget lower by more than ${pointsText(plan.margin)} (non-inferiority: the interval's low end above -${pointsText(plan.margin)}); not supported: lower by more than that somewhere (the whole interval), or lower at ${plan.tight}; negligible: the difference at ${plan.tight} inside +-${pointsText(plan.margin)}`,
  measures: (plan, budgets) =>
    passMeasures(budgets, "announced", (budget) => (budget === plan.tight ? "pass tight" : `pass ${budget}`)),
  verdict: (_plan, comparisons): Verdict => {
    const tight = comparisons.get("pass tight")?.outcome ?? "no data";
    const every = measuredOutcomes(comparisons, "pass");
    if (!isRead(tight) || every.length === 0) return "no data";
    if (tight === "lower" || every.some((comparison) => comparison.nonInferiority === "inferior"))
      return "not supported";
    if (tight === "higher" && every.every((comparison) => comparison.nonInferiority === "non-inferior"))
      return "supported";
    if (tight === "negligible") return "negligible";
    return "inconclusive";
  },
};
