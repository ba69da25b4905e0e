// A Gymnasium-style stateful facade over an Env, for users who want `reset` / `step(actionText)`:
//   const game = gym(sokoban());
//   let { observation, info } = game.reset({ seed: 1 });
//   const { reward, terminated, truncated } = game.step("Up");
// `maxTurns` applies a turn limit from outside the env (as Gymnasium's TimeLimit): the step that reaches it
// without termination returns truncated = true with stopReason "max_turns".
import type { Env, StepInfo } from "./env.js";
import type { Message } from "./message.js";

export interface GymStep {
  readonly observation: readonly Message[];
  readonly reward: number;
  readonly terminated: boolean;
  readonly truncated: boolean;
  readonly info: StepInfo;
}

export interface GymEnv<TTask> {
  /** Start an episode: on `options.task` if given, else on the task generated from `seed`. */
  reset(args: { seed: number; options?: { task?: TTask; maxTurns?: number } }): {
    observation: readonly Message[];
    info: StepInfo;
    task: TTask;
  };
  step(action: string | Message): GymStep;
}

export function gym<TTask, TState>(env: Env<TTask, TState>): GymEnv<TTask> {
  let state: TState | undefined;
  let turns = 0;
  let maxTurns = Infinity;
  let done = true;
  return {
    reset({ seed, options }) {
      const task = options?.task ?? env.generate(seed);
      const start = env.reset(task, { seed });
      state = start.state;
      turns = 0;
      maxTurns = options?.maxTurns ?? Infinity;
      done = false;
      return { observation: start.observation, info: start.info, task };
    },
    step(action) {
      if (state === undefined || done)
        throw new Error("gym: call reset() before step(), and again after an episode ends");
      const message: Message = typeof action === "string" ? { role: "assistant", content: action } : action;
      const result = env.step(state, message);
      state = result.state;
      turns += 1;
      const truncated = !result.terminated && turns >= maxTurns;
      done = result.terminated || truncated;
      const info: StepInfo = truncated ? { ...result.info, stopReason: "max_turns" } : result.info;
      return { observation: result.observation, reward: result.reward, terminated: result.terminated, truncated, info };
    },
  };
}
