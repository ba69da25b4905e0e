// The env contract's step check (contract-steps.ts) finds what is wrong with a step: each broken field of a real
// hanoi step is named, a well-formed step has no problem, and the multi-turn rules (tool results before the user
// turn, segments that grow by one and end with a user message) are checked.
import { describe, expect, it } from "vitest";
import type { StepResult } from "../../src/core/env.js";
import { hanoi } from "../../src/envs/hanoi/index.js";
import { stepProblems, type StepShape } from "./contract-steps.js";

const env = hanoi();
const { state } = env.reset(env.tasks.generate(0), { seed: 0 });
const step = env.step(state, { role: "assistant", content: "<answer>A->C</answer>" });
const single: StepShape = { multiTurn: false, stopReasons: ["success", "failure"] };
const multi: StepShape = { ...single, multiTurn: true };
const broken = (change: Partial<StepResult<unknown>>, info: object = {}): StepResult<unknown> => ({
  ...step,
  ...change,
  info: { ...step.info, ...info },
});

describe("stepProblems", () => {
  it("finds none in a well-formed step, and names each broken field of a single-turn step", () => {
    expect(stepProblems(env, step, single)).toEqual([]);
    expect(stepProblems(env, broken({ reward: Number.NaN }), single)).toEqual(["reward NaN"]);
    expect(stepProblems(env, broken({}, { progress: Infinity }), single)).toEqual(["progress Infinity"]);
    expect(stepProblems(env, broken({}, { stateKey: "elsewhere" }), single)).toHaveLength(1);
    expect(stepProblems(env, broken({}, { parsedAction: null, invalid: false }), single)).toEqual([
      "no parsed action, yet not invalid",
    ]);
    expect(stepProblems(env, broken({}, { stopReason: "success" }), single)).toEqual([
      "stop reason success on a step that goes on",
    ]);
    expect(stepProblems(env, broken({ terminated: true }), single)).toEqual([
      "stop reason undefined, expected one of success, failure",
    ]);
    expect(stepProblems(env, broken({ observation: [] }), single)).toEqual([
      "roles , not one user message",
      "user content undefined",
    ]);
    expect(stepProblems(env, broken({}, { segment: 1 }), single)).toEqual(["segment 1 in a single-turn env"]);
  });

  it("checks the order of tool results and user messages, and segments, under multiTurn", () => {
    const tool = { role: "tool" as const, content: "{}", toolCallId: "call_0" };
    const user = { role: "user" as const, content: "next" };
    expect(stepProblems(env, broken({ observation: [tool, user] }), multi, 0)).toEqual([]);
    expect(stepProblems(env, broken({ observation: [user, tool] }), multi)).toEqual([
      "roles user,tool: not only user messages from the user turn on",
    ]);
    expect(stepProblems(env, broken({ observation: [{ role: "assistant", content: "hi" }, user] }), multi)).toEqual([
      "roles assistant,user: not tool results before the user turn",
      "message 0 (assistant): no toolCallId",
    ]);
    expect(stepProblems(env, broken({ observation: [] }), multi)).toEqual([
      "no messages in the observation of a step that goes on",
    ]);
    expect(stepProblems(env, broken({ observation: [tool] }, { segment: 3 }), multi, 1)).toEqual([
      "segment 3 after 1",
      "a new segment that does not end with a user message",
    ]);
  });
});
