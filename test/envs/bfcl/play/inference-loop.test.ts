// The upstream loop with fake backends: turn ends, the 20-step force-quit, miss_func re-adds, excluded and
// held-out functions, both modes.
import { describe, expect, it } from "vitest";
import type { Message } from "../../../../src/core/message.js";
import { startEpisode, stepEpisode, type BfclState } from "../../../../src/envs/bfcl/play/inference-loop.js";
import {
  ADDITIONAL_FUNCTION_MESSAGE,
  additionalFunctionsPrompt,
  systemPrompt,
} from "../../../../src/envs/bfcl/play/prompts.js";
import { ANSWER, fakeContext, toolCalls } from "../fixtures.js";

function play(context: ReturnType<typeof fakeContext>["context"], state: BfclState, actions: readonly Message[]) {
  return actions.map((action) => stepEpisode(context, state, action));
}

describe("the loop in tools mode", () => {
  it("feeds tool results back by id, ends turns on answers without calls, and succeeds on the ground truth", () => {
    const { context, entry } = fakeContext();
    const start = startEpisode(context, entry("multi_turn_base_0"));
    expect(start.observation).toEqual([{ role: "user", content: "Add 2." }]);
    expect(start.tools?.map((tool) => tool.name)).toEqual(["add", "get", "write", "read"]);
    const state = start.state;
    const first = stepEpisode(context, state, toolCalls(["add", '{"amount": 2}'], ["get", "{}"]));
    expect(first.observation).toEqual([
      { role: "tool", content: '{"count": 3}', toolCallId: "t0" },
      { role: "tool", content: "3", toolCallId: "t1" },
    ]);
    expect(first.turnVerdict).toBeUndefined();
    const end = stepEpisode(context, state, ANSWER);
    expect(end.turnVerdict).toEqual({ valid: true });
    expect(end.observation).toEqual([{ role: "user", content: "Write note a." }]);
    expect(state.turn).toBe(1);
    const rest = play(context, state, [
      toolCalls(["write", '{"title": "a", "text": "hello"}']),
      ANSWER,
      toolCalls(["read", '{"title": "a"}']),
      ANSWER,
    ]);
    expect(rest[2]?.observation[0]?.content).toBe("hello");
    expect(rest[3]?.outcome).toBe("success");
    expect(state.passedTurns).toBe(3);
    expect(state.transcript.map((turn) => turn.length)).toEqual([1, 1, 1]);
  });

  it("fails a turn answered without calls when the ground truth has calls, and stops there by default", () => {
    const { context, entry } = fakeContext();
    const { state } = startEpisode(context, entry("multi_turn_base_0"));
    const step = stepEpisode(context, state, ANSWER);
    expect(step.turnVerdict).toMatchObject({ valid: false, errorType: "multi_turn:empty_turn_model_response" });
    expect(step.outcome).toBe("failure");
    expect(step.observation).toEqual([]);
    expect(stepEpisode(context, state, ANSWER)).toEqual({ observation: [], calls: [], malformed: false });
  });

  it("keeps playing after a failure when asked, keeping the first failure as the verdict", () => {
    const { context, entry } = fakeContext({ stopOnFailure: false });
    const { state } = startEpisode(context, entry("multi_turn_base_0"));
    const steps = play(context, state, [
      ANSWER,
      toolCalls(["write", '{"title": "a", "text": "hello"}']),
      ANSWER,
      toolCalls(["read", '{"title": "a"}']),
      ANSWER,
    ]);
    expect(steps.map((step) => step.outcome)).toEqual([undefined, undefined, undefined, undefined, "failure"]);
    expect(state.failure).toMatchObject({ errorType: "multi_turn:empty_turn_model_response" });
    expect(state.passedTurns).toBe(0); // turn 1 fails too: the counter was never incremented to 3
  });

  it("force-quits after the 21st response with calls in a turn before the last, as upstream", () => {
    const { context, entry } = fakeContext();
    const { state } = startEpisode(context, entry("multi_turn_base_0"));
    const steps = play(
      context,
      state,
      Array.from({ length: 21 }, () => toolCalls(["get", "{}"])),
    );
    expect(steps.slice(0, 20).every((step) => step.outcome === undefined)).toBe(true);
    expect(steps[20]?.outcome).toBe("force_terminated");
    expect(steps[20]?.observation).toEqual([{ role: "tool", content: "1", toolCallId: "t0" }]);
    expect(state.failure).toMatchObject({ valid: false, errorType: "multi_turn:force_terminated" });
  });

  it("checks a force-quit last turn as usual (upstream's runner cannot see it)", () => {
    const { context, entry } = fakeContext();
    const { state } = startEpisode(context, entry("multi_turn_base_1"));
    play(context, state, [toolCalls(["add", '{"amount": 5}'], ["add", '{"amount": 5}']), ANSWER]);
    const steps = play(
      context,
      state,
      Array.from({ length: 21 }, () => toolCalls(["get", "{}"])),
    );
    expect(steps[20]?.outcome).toBe("success");
  });

  it("honours a smaller step limit", () => {
    const { context, entry } = fakeContext({ maxStepsPerTurn: 2 });
    const { state } = startEpisode(context, entry("multi_turn_base_0"));
    const steps = play(context, state, [toolCalls(["get", "{}"]), toolCalls(["get", "{}"]), toolCalls(["get", "{}"])]);
    expect(steps.map((step) => step.outcome)).toEqual([undefined, undefined, "force_terminated"]);
  });

  it("re-adds held-out functions at their turn with upstream's message and new tools", () => {
    const { context, entry } = fakeContext();
    const start = startEpisode(context, entry("multi_turn_miss_func_0"));
    expect(start.tools?.map((tool) => tool.name)).toEqual(["add", "get", "write", "delete"]);
    const steps = play(context, start.state, [toolCalls(["add", '{"amount": 2}']), ANSWER, ANSWER]);
    expect(steps[1]?.tools).toBeUndefined();
    expect(steps[2]?.turnVerdict).toEqual({ valid: true });
    expect(steps[2]?.observation).toEqual([{ role: "user", content: ADDITIONAL_FUNCTION_MESSAGE }]);
    expect(steps[2]?.tools?.map((tool) => tool.name)).toEqual(["add", "get", "write", "delete", "read"]);
    expect(steps[2]?.tools?.[4]?.description).toBe("Read a note.");
    const last = play(context, start.state, [toolCalls(["read", '{"title": "todo"}']), ANSWER]);
    expect(last[0]?.observation[0]?.content).toBe("buy milk");
    expect(last[1]?.outcome).toBe("success");
  });

  it("lets held-out functions run as upstream does, unless only offered functions may run", () => {
    for (const [callable, text] of [
      ["unexcluded", "buy milk"],
      ["all", "buy milk"],
      ["offered", "Error during execution: name 'read' is not defined"],
    ] as const) {
      const { context, entry } = fakeContext({ callable });
      const { state } = startEpisode(context, entry("multi_turn_miss_func_0"));
      expect(
        stepEpisode(context, state, toolCalls(["read", '{"title": "todo"}'])).observation[0]?.content,
        callable,
      ).toBe(text);
    }
  });

  it("never offers excluded functions, and runs them only under callable=all", () => {
    for (const [callable, text] of [
      ["unexcluded", "Error during execution: name 'delete' is not defined"],
      ["offered", "Error during execution: name 'delete' is not defined"],
      ["all", "None"],
    ] as const) {
      const { context, entry } = fakeContext({ callable });
      const { state, tools } = startEpisode(context, entry("multi_turn_base_0"));
      expect(tools?.some((tool) => tool.name === "delete")).toBe(false);
      expect(
        stepEpisode(context, state, toolCalls(["delete", '{"title": "todo"}'])).observation[0]?.content,
        callable,
      ).toBe(text);
    }
  });

  it("ends the turn on malformed tool calls, answering each call so the chat stays valid", () => {
    const { context, entry } = fakeContext();
    const { state } = startEpisode(context, entry("multi_turn_base_0"));
    const step = stepEpisode(context, state, toolCalls(["add", '{"amount": ']));
    expect(step.malformed).toBe(true);
    expect(step.calls).toEqual([]);
    expect(step.observation[0]).toMatchObject({ role: "tool", toolCallId: "t0" });
    expect(step.observation[0]?.content).toMatch(
      /^Error decoding the model response: arguments of add are not valid JSON/,
    );
    expect(step.outcome).toBe("failure");
  });
});

describe("the loop in prompting mode", () => {
  it("opens with upstream's system prompt and feeds results back as a user message", () => {
    const { context, entry } = fakeContext({ mode: "prompting" });
    const start = startEpisode(context, entry("multi_turn_base_0"));
    expect(start.tools).toBeUndefined();
    expect(start.observation[0]).toEqual({
      role: "system",
      content: systemPrompt(context.functionsOf(entry("multi_turn_base_0")).initial),
    });
    expect(start.observation[1]).toEqual({ role: "user", content: "Add 2." });
    const step = stepEpisode(context, start.state, {
      role: "assistant",
      content: "```\n[add(amount=2), read(title='nope')]\n```",
    });
    expect(step.observation).toEqual([
      {
        role: "user",
        content: `[{'role': 'tool', 'name': 'add(amount=2)', 'content': '{"count": 3}'}, {'role': 'tool', 'name': "read(title='nope')", 'content': "Error during execution: 'nope'"}]`,
      },
    ]);
    const end = stepEpisode(context, start.state, { role: "assistant", content: "I added 2." });
    expect(end.malformed).toBe(false);
    expect(end.turnVerdict).toEqual({ valid: true }); // a failed extra call changes nothing the checks see
  });

  it("sends held-out functions as upstream's repr message", () => {
    const { context, entry } = fakeContext({ mode: "prompting" });
    const { state } = startEpisode(context, entry("multi_turn_miss_func_0"));
    const steps = play(context, state, [{ role: "assistant", content: "[add(amount=2)]" }, ANSWER, ANSWER]);
    expect(steps[2]?.observation).toEqual([
      {
        role: "user",
        content: additionalFunctionsPrompt(context.functionsOf(entry("multi_turn_miss_func_0")).added.get(2) ?? []),
      },
    ]);
    expect(steps[2]?.observation[0]?.content).toMatch(/^\[\{'name': 'read', 'description': 'Read a note.'/);
  });
});
