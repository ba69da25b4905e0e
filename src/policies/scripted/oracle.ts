// The oracle policy: an optimal action each turn (ties broken uniformly at random with the episode's stream);
// in a state with no optimal action (dead ends), a random valid action.
import type { Policy, PolicyContext } from "../../core/policy.js";

export function oracleAction(context: PolicyContext): string {
  const { optimal } = context.privileged.oracle();
  if (optimal.length === 1) return optimal[0] as string;
  if (optimal.length > 1) return context.rng.pick(optimal);
  const actions = context.privileged.validActions();
  return actions.length === 0 ? "" : context.rng.pick(actions);
}

export function oraclePolicy(): Policy {
  return { name: "oracle", act: async (_conversation, context) => ({ message: context.privileged.toMessage(oracleAction(context)) }) };
}
