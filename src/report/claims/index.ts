// The claims' tests by id (claim-test.ts says what a test is).
import type { ClaimPlan } from "../analysis-plan.js";
import { budgetmixClaim } from "./budgetmix.js";
import type { ClaimTest } from "./claim-test.js";
import { hiddenBudgetClaim } from "./hidden-budget.js";
import { processClaim } from "./process.js";
import { recoveryHorizonClaim } from "./recovery-horizon.js";
import { rlBudgetsClaim } from "./rl-budgets.js";

export type { ClaimTest, Comparisons, PlannedMeasure } from "./claim-test.js";
export { pointsText } from "./claim-test.js";

/** The test of a claim of the plan. */
export function claimTest<Plan extends ClaimPlan>(plan: Plan): ClaimTest<Plan> {
  const tests: { readonly [Id in ClaimPlan["id"]]: ClaimTest<Extract<ClaimPlan, { id: Id }>> } = {
    "rl-budgets": rlBudgetsClaim,
    "recovery-horizon": recoveryHorizonClaim,
    process: processClaim,
    budgetmix: budgetmixClaim,
    "hidden-budget": hiddenBudgetClaim,
  };
  return tests[plan.id] as unknown as ClaimTest<Plan>;
}
