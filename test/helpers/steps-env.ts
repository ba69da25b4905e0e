// A tiny deterministic env for engine tests: a task is a list of segments (user turns), each needing a number of
// "go" actions; anything else is invalid. Success after the last segment.
import type { Env } from "../../src/core/env.js";
import { hashHex } from "../../src/core/hash.js";

export interface StepsTask {
  readonly id: string;
  readonly segments: readonly number[];
}

export interface StepsState {
  segment: number;
  done: number;
}

function remaining(task: StepsTask, state: StepsState): number {
  let left = (task.segments[state.segment] ?? 0) - state.done;
  for (let i = state.segment + 1; i < task.segments.length; i++) left += task.segments[i] as number;
  return left;
}

export function stepsEnv(): Env<StepsTask, StepsState & { task: StepsTask }> {
  const key = (state: StepsState) => hashHex(`${state.segment}:${state.done}`);
  return {
    spec: { name: "steps", config: {} },
    tasks: {
      generate: (seed) => ({ id: `steps-${seed}`, segments: [1 + (seed % 3), 2] }),
      id: (task) => task.id,
      structure: "the task itself",
      structureKey: (task) => task.id,
      encode: (task) => ({ id: task.id, segments: [...task.segments] }),
      decode: (json) => json as unknown as StepsTask,
      parse: () => [],
      referenceBudget: (task, scope) =>
        scope === "user-turn" ? Math.max(...task.segments) * 2 : task.segments.reduce((a, b) => a + b, 0) * 2,
    },
    actions: { valid: () => ["go", "stop"], stateKey: (state) => key(state) },
    oracle: {
      answer: (state) => ({
        optimal: remaining(state.task, state) > 0 ? ["go"] : [],
        remaining: remaining(state.task, state),
        value: 1,
      }),
    },
    reset: (task) => {
      const state = { task, segment: 0, done: 0 };
      return {
        state,
        observation: [
          { role: "system", content: "Say go." },
          { role: "user", content: "segment 0" },
        ],
        info: { progress: 0, stateKey: key(state), invalid: false, parsedAction: null, segment: 0 },
      };
    },
    step: (state, action) => {
      const valid = action.content.trim() === "go";
      if (valid) {
        state.done += 1;
        if (state.done >= (state.task.segments[state.segment] as number)) {
          state.segment += 1;
          state.done = 0;
        }
      }
      const success = state.segment >= state.task.segments.length;
      return {
        state,
        observation: [{ role: "user", content: valid ? `ok, segment ${state.segment}` : "invalid: say go" }],
        reward: success ? 1 : 0,
        terminated: success,
        info: {
          progress: -remaining(state.task, state),
          stateKey: key(state),
          invalid: !valid,
          parsedAction: valid ? "go" : null,
          segment: state.segment,
          ...(success ? { stopReason: "success" as const } : {}),
        },
      };
    },
  };
}
