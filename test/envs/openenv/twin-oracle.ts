// The oracle policy played through `openenv:` against budgetrl's own env-server: the openenv env has no oracle (the
// server's is out of reach), so the policy keeps a twin of each episode in this process (the same env, task and
// seed, stepped with the same replies) and asks the oracle policy itself what to play, with the twin's privileged
// view. Its random stream is the episode's (context.rng), as in process: the choices are the same.
import { runEpisode } from "../../../src/agent/rollout.js";
import type { AnyEnv } from "../../../src/core/env.js";
import type { Message } from "../../../src/core/message.js";
import type { Policy, PrivilegedView } from "../../../src/core/policy.js";
import { oraclePolicy } from "../../../src/policies/scripted/oracle.js";

interface Twin {
  state: unknown;
  sent: Message | undefined;
  used: number;
}

export function twinOracle(env: AnyEnv, taskOf: (taskId: string) => unknown, turns: number): Policy {
  const oracle = oraclePolicy();
  const twins = new WeakMap<object, Twin>();
  return {
    name: "twin-oracle",
    knowsBudget: true,
    async act(conversation, context) {
      const key = context.episode ?? {};
      let twin = twins.get(key);
      if (twin === undefined) {
        twin = { state: env.reset(taskOf(context.taskId), { seed: context.seed }).state, sent: undefined, used: 0 };
        twins.set(key, twin);
      } else if (twin.sent !== undefined) {
        twin.state = env.step(twin.state, twin.sent).state;
        twin.used++;
      }
      const now = twin;
      const privileged: PrivilegedView = {
        oracle: (horizon = "turns-left") =>
          horizon === "unbounded" ? env.oracle!.answer(now.state) : env.oracle!.answer(now.state, turns - now.used),
        validActions: () => env.actions.valid(now.state),
        toMessage: (action) =>
          env.actions.message === undefined
            ? { role: "assistant", content: action }
            : env.actions.message(now.state, action),
      };
      const act = await oracle.act(conversation, { ...context, privileged });
      now.sent = act.message;
      return act;
    },
  };
}

export { runEpisode };
