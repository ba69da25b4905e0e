// An env played turn by turn on given replies from a state: every step's result, each step starting from the
// state the one before left (what env tests read observations, rewards and infos from).
import type { Env, StepResult } from "../../src/core/env.js";
import { assistantMessage } from "../../src/core/message.js";

export function playReplies<TTask, TState>(
  env: Env<TTask, TState>,
  state: TState,
  replies: readonly string[],
): StepResult<TState>[] {
  let current = state;
  return replies.map((reply) => {
    const result = env.step(current, assistantMessage(reply));
    current = result.state;
    return result;
  });
}
