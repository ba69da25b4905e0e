// The noisy oracle: with probability epsilon a uniformly random valid action, otherwise an optimal one within
// the turns left in the budget (as the oracle policy). A knob for "competent but imperfect" agents (SFT
// demonstrations, error-recovery studies).
import { ConfigError } from "../../core/errors.js";
import type { Policy } from "../../core/policy.js";
import { oracleAction } from "./oracle.js";

export function noisyOraclePolicy(epsilon: number): Policy {
  if (!(epsilon >= 0 && epsilon <= 1))
    throw new ConfigError("policy", `noisy-oracle epsilon must be in [0, 1], got ${epsilon}`);
  return {
    name: `noisy-oracle:${epsilon}`,
    knowsBudget: true,
    act: async (_conversation, context) => {
      let action: string;
      if (context.rng.next() < epsilon) {
        const actions = context.privileged.validActions();
        action = actions.length === 0 ? "" : context.rng.pick(actions);
      } else action = oracleAction(context);
      return { message: context.privileged.toMessage(action) };
    },
  };
}
