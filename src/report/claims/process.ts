// Finding 3, "process supervision has benefits and limits": turn-level - GRPO-Full with the budget announced, on
// step quality and on success after a forced error (pooled over the budgets, or at one, as the plan says) and on
// Pass@1 at every budget. A benefit is a comparison higher by at least the margin; a limit, one that is negligible
// or lower. Supported: at least one benefit and one limit; not supported: every comparison higher (no limit), or
// none higher and some lower (no benefit); negligible: every comparison negligible; else inconclusive.
import { isBudgetReading, type ClaimPlan } from "../analysis-plan.js";
import type { StatisticKind } from "../finding-measures.js";
import type { Verdict } from "../study-model.js";
import { measuredOutcomes, passMeasures, pointsText, type ClaimTest, type PlannedMeasure } from "./claim-test.js";

type Plan = Extract<ClaimPlan, { id: "process" }>;

function pooledMeasure(kind: StatisticKind, name: string, plan: Plan, budgets: readonly string[]): PlannedMeasure {
  const at = isBudgetReading(plan.stepAndRecovery) ? budgets : [plan.stepAndRecovery];
  return {
    key: `${kind}`,
    measure: {
      name: `${name}, ${isBudgetReading(plan.stepAndRecovery) ? "pooled over the budgets" : `at ${plan.stepAndRecovery}`}`,
      contrasts: at.map((budget) => ({
        kind: "difference" as const,
        statistic: { kind, mode: "announced" as const, budget },
      })),
    },
    mode: "announced",
    decides: true,
  };
}

export const processClaim: ClaimTest<Plan> = {
  title: "Process supervision has benefits and limits",
  claim: "Turn-level credit (process supervision) improves some things over trajectory-level RL, but not everything.",
  statistic: (plan) =>
    `${plan.a} - ${plan.b} (announced): step quality on the expert's states and success after a forced error, ${isBudgetReading(plan.stepAndRecovery) ? "pooled over the budgets" : `at ${plan.stepAndRecovery}`}; Pass@1 at every budget`,
  rule: (plan) =>
    `supported: some comparison higher by at least ${pointsText(plan.margin)} (a benefit) and some negligible or lower (a limit); not supported: every comparison higher, or none higher and some lower; negligible: every comparison inside +-${pointsText(plan.margin)}`,
  measures: (plan, budgets) => [
    pooledMeasure("step-quality", "step quality", plan, budgets),
    ...passMeasures(budgets, "announced", (budget) => `pass ${budget}`),
    pooledMeasure("recovery", "success after a forced error", plan, budgets),
  ],
  verdict: (_plan, comparisons): Verdict => {
    const every = measuredOutcomes(comparisons, "");
    if (every.length === 0) return "no data";
    const benefits = every.filter((comparison) => comparison.outcome === "higher").length;
    const limits = every.filter(
      (comparison) => comparison.outcome === "negligible" || comparison.outcome === "lower",
    ).length;
    if (benefits > 0 && limits > 0) return "supported";
    if (benefits === every.length) return "not supported";
    if (benefits === 0 && every.some((comparison) => comparison.outcome === "lower")) return "not supported";
    if (every.every((comparison) => comparison.outcome === "negligible")) return "negligible";
    return "inconclusive";
  },
};
