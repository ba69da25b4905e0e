// The oracle policy: an optimal action each turn (ties broken uniformly at random with the episode's stream);
// in a state with no optimal action (dead ends), a random valid action.
// "oracle" plays budget-optimally: the actions that maximise the probability of success within the turns left
// in the budget (a privileged view: it knows them even when the budget is hidden from the agent), the fewest
// expected turns among ties. "oracle:unbounded" ignores the budget: the unlimited-horizon optimal set.
import type { OracleHorizon, Policy, PolicyContext } from "../../core/policy.js";

/** The optimal set a scripted policy plays from: within the turns left, or with an unlimited horizon. */
export function optimalActions(context: PolicyContext, horizon: OracleHorizon): readonly string[] {
  return context.privileged.oracle(horizon).optimal;
}

export function oracleAction(context: PolicyContext, horizon: OracleHorizon = "turns-left"): string {
  const optimal = optimalActions(context, horizon);
  if (optimal.length === 1) return optimal[0] as string;
  if (optimal.length > 1) return context.rng.pick(optimal);
  const actions = context.privileged.validActions();
  return actions.length === 0 ? "" : context.rng.pick(actions);
}

export function oraclePolicy(horizon: OracleHorizon = "turns-left"): Policy {
  return {
    name: horizon === "unbounded" ? "oracle:unbounded" : "oracle",
    knowsBudget: horizon === "turns-left",
    act: async (_conversation, context) => ({ message: context.privileged.toMessage(oracleAction(context, horizon)) }),
  };
}
