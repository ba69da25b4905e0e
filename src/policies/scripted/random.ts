// The random policy: a uniformly random valid action each turn (seeded by the episode's policy stream).
import type { Policy } from "../../core/policy.js";

export function randomPolicy(): Policy {
  return {
    name: "random",
    act: async (_conversation, context) => {
      const actions = context.privileged.validActions();
      const action = actions.length === 0 ? "" : context.rng.pick(actions);
      return { message: context.privileged.toMessage(action) };
    },
  };
}
