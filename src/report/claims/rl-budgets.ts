// Finding 1, "gains depend on sufficient budgets": GRPO-Full - base at the generous budget (G), at the tight one (T),
// and the difference of the two gains D = (a - b at G) - (a - b at T), paired over tasks, Pass@1 with the budget
// announced. Supported when G and D are both higher (by at least the margin); not supported when either is lower;
// negligible when either is negligible and nothing is lower; else inconclusive. T is context: whether RL falls
// below the base at the tight budget (the paper's BFCL Table 1: 2.5 against 3.0) is said beside the verdict.
import type { ClaimPlan } from "../analysis-plan.js";
import { isRead } from "../effect-outcome.js";
import type { Statistic } from "../finding-measures.js";
import type { Verdict } from "../study-model.js";
import { pointsText, type ClaimTest } from "./claim-test.js";

type Plan = Extract<ClaimPlan, { id: "rl-budgets" }>;

const pass = (budget: string): Statistic => ({ kind: "pass", mode: "announced", budget });

export const rlBudgetsClaim: ClaimTest<Plan> = {
  title: "Trajectory-level RL's gains depend on sufficient budgets",
  claim:
    "GRPO-Full raises Pass@1 over the base model when the turn budget is generous, and gains little or nothing (or loses) when it is tight: its gain shrinks as the budget tightens.",
  statistic: (plan) =>
    `${plan.a} - ${plan.b}, Pass@1 (announced) at ${plan.generous} and at ${plan.tight}, and the difference of the two gains`,
  rule: (plan) =>
    `supported: the gain at ${plan.generous} and the difference of gains both higher by at least ${pointsText(plan.margin)}; not supported: either lower; negligible: either inside +-${pointsText(plan.margin)} and none lower`,
  measures: (plan) => [
    {
      key: "generous",
      measure: {
        name: `Pass@1 at ${plan.generous}`,
        contrasts: [{ kind: "difference", statistic: pass(plan.generous) }],
      },
      mode: "announced",
      decides: true,
    },
    {
      key: "tight",
      measure: { name: `Pass@1 at ${plan.tight}`, contrasts: [{ kind: "difference", statistic: pass(plan.tight) }] },
      mode: "announced",
      decides: false,
    },
    {
      key: "shrink",
      measure: {
        name: `gain at ${plan.generous} minus gain at ${plan.tight}`,
        contrasts: [{ kind: "difference of differences", first: pass(plan.generous), second: pass(plan.tight) }],
      },
      mode: "announced",
      decides: true,
    },
  ],
  verdict: (_plan, comparisons): Verdict => {
    const generous = comparisons.get("generous")?.outcome ?? "no data";
    const shrink = comparisons.get("shrink")?.outcome ?? "no data";
    const outcomes = [generous, shrink];
    if (!outcomes.every(isRead)) return "no data";
    if (outcomes.includes("lower")) return "not supported";
    if (generous === "higher" && shrink === "higher") return "supported";
    if (outcomes.includes("negligible")) return "negligible";
    return "inconclusive";
  },
};
