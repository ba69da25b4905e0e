// A Gymnasium-style stateful facade over an Env, for users who want `reset` / `step(actionText)`:
//   const game = gym(sokoban());
//   let { observation, info } = game.reset({ seed: 1 });
//   const { reward, terminated, truncated } = game.step("Up");
// The facade only terminates (the env's own ends); a turn budget is applied from outside, as Gymnasium's TimeLimit,
// by wrapping it: `withTurnBudget(gym(env), { turns: 8 })` (scope "episode", or "user-turn": the count restarts at
// each user turn, as in the rollout; both counted by the turn clock, turn-clock.ts). The step that spends the budget
// without termination returns truncated = true with stopReason "max_turns"; `terminated` and `truncated` stay apart.
import type { BudgetScope } from "./budget.js";
import type { Env, StepInfo } from "./env.js";
import type { Message } from "./message.js";
import { advanceTurnClock, budgetSpent, startTurnClock, type TurnClock } from "./turn-clock.js";

export interface GymStep {
  readonly observation: readonly Message[];
  readonly reward: number;
  readonly terminated: boolean;
  readonly truncated: boolean;
  readonly info: StepInfo;
}

export interface GymEnv<TTask> {
  /** Start an episode: on `options.task` if given, else on the task generated from `seed`. */
  reset(args: { seed: number; options?: { task?: TTask } }): {
    observation: readonly Message[];
    info: StepInfo;
    task: TTask;
  };
  step(action: string | Message): GymStep;
}

const notStarted = (): Error => new Error("gym: call reset() before step(), and again after an episode ends");

export function gym<TTask, TState>(env: Env<TTask, TState>): GymEnv<TTask> {
  let state: TState | undefined;
  let done = true;
  return {
    reset({ seed, options }) {
      const task = options?.task ?? env.tasks.generate(seed);
      const start = env.reset(task, { seed });
      state = start.state;
      done = false;
      return { observation: start.observation, info: start.info, task };
    },
    step(action) {
      if (state === undefined || done) throw notStarted();
      const message: Message = typeof action === "string" ? { role: "assistant", content: action } : action;
      const result = env.step(state, message);
      state = result.state;
      done = result.terminated;
      return {
        observation: result.observation,
        reward: result.reward,
        terminated: result.terminated,
        truncated: false,
        info: result.info,
      };
    },
  };
}

/** A gym env whose episodes end after `budget.turns` turns (in the budget's scope; default "episode"): the step that
 * spends the budget without terminating is truncated, with stopReason "max_turns". */
export function withTurnBudget<TTask>(
  inner: GymEnv<TTask>,
  budget: { readonly turns: number; readonly scope?: BudgetScope },
): GymEnv<TTask> {
  const limit = { turns: budget.turns, scope: budget.scope ?? "episode" };
  let clock: TurnClock | undefined;
  return {
    reset(args) {
      const start = inner.reset(args);
      clock = startTurnClock(limit, start.info.segment);
      return start;
    },
    step(action) {
      if (clock === undefined) throw notStarted();
      const result = inner.step(action);
      clock = advanceTurnClock(clock, result.info.segment);
      const truncated = result.truncated || (!result.terminated && budgetSpent(clock));
      if (result.terminated || truncated) clock = undefined;
      if (!truncated || result.truncated) return result;
      return { ...result, truncated, info: { ...result.info, stopReason: "max_turns" } };
    },
  };
}
