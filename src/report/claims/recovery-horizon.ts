// Finding 2, "agentic RL does not uniformly raise single-step quality; its strength concentrates in error recovery
// and long-horizon resilience". Two parts, GRPO-Full - base with the budget announced, paired over tasks:
//   not uniform   step quality on the expert's states at each budget: the part holds when at some budget the gain
//                 is negligible or lower, fails when it is higher (by the margin) at every budget
//   concentrated  per task, the recovery gain minus the step-quality gain (success after an error forced on the
//                 expert's states), and the long-horizon gain minus the step-quality gain (success on the env's
//                 longest tasks), read where the plan says (pooled over the budgets, or at one): the part holds when
//                 either is higher by the margin while its own gain is not lower, fails when every one is lower,
//                 and is negligible when every one is negligible
// Supported when both parts hold; not supported when either fails; negligible when the concentration is negligible
// and the first part does not fail; else inconclusive. The three gains themselves are shown for context.
import { isBudgetReading, type ClaimPlan } from "../analysis-plan.js";
import { isRead } from "../effect-outcome.js";
import type { Measure, Statistic, StatisticKind } from "../finding-measures.js";
import type { StudyComparison, Verdict } from "../study-model.js";
import { pointsText, type ClaimTest, type Comparisons, type PlannedMeasure } from "./claim-test.js";

type Plan = Extract<ClaimPlan, { id: "recovery-horizon" }>;

const statistic = (kind: StatisticKind, budget: string): Statistic => ({ kind, mode: "announced", budget });

/** The budgets a reading covers: all of them (pooled), or the one it names. */
const readAt = (reading: string, budgets: readonly string[]): readonly string[] =>
  isBudgetReading(reading) ? budgets : [reading];

const where = (reading: string): string => (isBudgetReading(reading) ? "pooled over the budgets" : `at ${reading}`);

function gainMinusStep(kind: StatisticKind, what: string, plan: Plan, budgets: readonly string[]): Measure {
  return {
    name: `${what} gain minus step-quality gain, ${where(plan.concentration)}`,
    contrasts: readAt(plan.concentration, budgets).map((budget) => ({
      kind: "difference of differences" as const,
      first: statistic(kind, budget),
      second: statistic("step-quality", budget),
    })),
  };
}

function gain(kind: StatisticKind, what: string, plan: Plan, budgets: readonly string[]): Measure {
  return {
    name: `${what}, ${where(plan.concentration)}`,
    contrasts: readAt(plan.concentration, budgets).map((budget) => ({
      kind: "difference" as const,
      statistic: statistic(kind, budget),
    })),
  };
}

const measured = (comparison: StudyComparison | undefined): comparison is StudyComparison =>
  comparison !== undefined && isRead(comparison.outcome);

/** "holds", "fails" or "unclear" for the first part; "no data" without any step-quality comparison. */
function notUniform(comparisons: Comparisons): "holds" | "fails" | "unclear" | "no data" {
  const steps = [...comparisons.values()].filter(
    (comparison) => comparison.key.startsWith("step ") && measured(comparison),
  );
  if (steps.length === 0) return "no data";
  if (steps.some((comparison) => comparison.outcome === "negligible" || comparison.outcome === "lower")) return "holds";
  return steps.every((comparison) => comparison.outcome === "higher") ? "fails" : "unclear";
}

function concentrated(comparisons: Comparisons): "holds" | "fails" | "negligible" | "unclear" | "no data" {
  const parts = (["recovery", "long"] as const)
    .map((part) => ({ contrast: comparisons.get(`${part} minus step`), own: comparisons.get(`${part} gain`) }))
    .filter((part) => measured(part.contrast));
  if (parts.length === 0) return "no data";
  if (parts.some((part) => part.contrast?.outcome === "higher" && part.own?.outcome !== "lower")) return "holds";
  if (parts.every((part) => part.contrast?.outcome === "lower")) return "fails";
  if (parts.every((part) => part.contrast?.outcome === "negligible")) return "negligible";
  return "unclear";
}

export const recoveryHorizonClaim: ClaimTest<Plan> = {
  title: "RL does not uniformly raise single-step quality; its gains concentrate in recovery and long horizons",
  claim:
    "Against the base model, GRPO-Full does not raise the quality of single decisions at every budget, and what it gains sits in recovering from errors and in long tasks more than in single steps.",
  statistic: (plan) =>
    `${plan.a} - ${plan.b} (announced): step quality on the expert's states at each budget; per task, the gain in success after a forced error minus the step-quality gain, and the gain on the longest tasks minus the step-quality gain, ${where(plan.concentration)}`,
  rule: (plan) =>
    `supported: step quality negligible or lower at some budget, and a gain minus the step-quality gain higher by at least ${pointsText(plan.margin)} while that gain itself is not lower; not supported: step quality higher at every budget, or both differences of gains lower; negligible: both differences of gains inside +-${pointsText(plan.margin)}`,
  measures: (plan, budgets): PlannedMeasure[] => [
    ...budgets.map((budget) => ({
      key: `step ${budget}`,
      measure: {
        name: `step quality at ${budget}`,
        contrasts: [{ kind: "difference" as const, statistic: statistic("step-quality", budget) }],
      },
      mode: "announced" as const,
      decides: true,
    })),
    {
      key: "recovery minus step",
      measure: gainMinusStep("recovery", "recovery", plan, budgets),
      mode: "announced",
      decides: true,
    },
    {
      key: "long minus step",
      measure: gainMinusStep("long-tasks", "longest-tasks", plan, budgets),
      mode: "announced",
      decides: true,
    },
    {
      key: "recovery gain",
      measure: gain("recovery", "success after a forced error", plan, budgets),
      mode: "announced",
      decides: false,
    },
    {
      key: "long gain",
      measure: gain("long-tasks", "success on the longest tasks", plan, budgets),
      mode: "announced",
      decides: false,
    },
    {
      key: "step gain",
      measure: gain("step-quality", "step quality", plan, budgets),
      mode: "announced",
      decides: false,
    },
  ],
  verdict: (_plan, comparisons): Verdict => {
    const first = notUniform(comparisons);
    const second = concentrated(comparisons);
    if (first === "no data" || second === "no data") return "no data";
    if (first === "fails" || second === "fails") return "not supported";
    if (first === "holds" && second === "holds") return "supported";
    if (second === "negligible") return "negligible";
    return "inconclusive";
  },
};
