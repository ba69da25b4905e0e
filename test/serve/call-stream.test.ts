// Tool calls streamed as they are written: the name first, then pieces of the arguments, which add up (with what
// finish() sends) to the calls of the whole reply, in every mode: hermes and llama3-json replies (tool_choice
// auto), the array of tool_choice "required", a named function's arguments.
import { describe, expect, it } from "vitest";
import type { JsonObject } from "../../src/core/json.js";
import { createCallStreamer } from "../../src/serve/call-stream.js";
import { replyCalls, type ToolPlan } from "../../src/serve/tool-choice.js";

interface Assembled {
  id?: string;
  type?: string;
  function: { name: string; arguments: string };
}

/** Feeds the text character by character, then finishes with the reply's calls; the deltas and the calls assembled. */
function stream(text: string, plan: ToolPlan): { deltas: JsonObject[]; calls: Assembled[]; final: Assembled[] } {
  const streamer = createCallStreamer(plan, (call) => `id-${call}`);
  const deltas: JsonObject[] = [];
  for (let end = 1; end <= text.length; end++) deltas.push(...streamer.update(text.slice(0, end)));
  const parsed = replyCalls(text, plan)?.calls ?? [];
  const final = parsed.map((call, i) => ({ id: `id-${i}`, type: "function", function: { ...call } }));
  deltas.push(...streamer.finish(parsed.map((call, i) => ({ id: `id-${i}`, ...call }))));
  // As the openai client's ChatCompletionStream assembles tool-call deltas.
  const calls: Assembled[] = [];
  for (const delta of deltas as unknown as {
    index: number;
    id?: string;
    type?: string;
    function?: { name?: string; arguments?: string };
  }[]) {
    const call = (calls[delta.index] ??= { function: { name: "", arguments: "" } });
    if (delta.id !== undefined) call.id = delta.id;
    if (delta.type !== undefined) call.type = delta.type;
    if (delta.function?.name !== undefined) call.function.name = delta.function.name;
    if (delta.function?.arguments !== undefined) call.function.arguments += delta.function.arguments;
  }
  return { deltas, calls, final };
}

const plan = (mode: ToolPlan["mode"], extra: Partial<ToolPlan> = {}): ToolPlan => ({
  mode,
  format: "hermes",
  parallel: true,
  ...extra,
});

describe("streamed tool calls", () => {
  it("sends a hermes call's name first, then its arguments piece by piece, adding up to the reply's calls", () => {
    const text =
      'Let me check.\n<tool_call>\n{"name": "get_weather", "arguments": {"city": "Paris", "days": [1, 2]}}\n</tool_call>\n<tool_call>\n{"name": "get_time", "arguments": {}}\n</tool_call>';
    const { deltas, calls, final } = stream(text, plan("auto"));
    expect(calls).toEqual(final);
    expect(final.map((call) => call.function.name)).toEqual(["get_weather", "get_time"]);
    expect(deltas[0]).toEqual({
      index: 0,
      id: "id-0",
      type: "function",
      function: { name: "get_weather", arguments: "" },
    });
    const pieces = deltas.filter((delta) => delta["index"] === 0 && delta["id"] === undefined);
    expect(pieces.length).toBeGreaterThan(10);
    expect(pieces.every((delta) => Object.keys(delta).sort().join() === "function,index")).toBe(true);
  });

  it("streams the objects of a llama3-json reply, the items of a required array, and a named function's arguments", () => {
    const llama = '{"name": "f", "parameters": {"x": 1}}; {"name": "g", "parameters": {"y": "z"}}';
    expect(stream(llama, plan("auto", { format: "llama3-json" })).calls).toEqual(
      stream(llama, plan("auto", { format: "llama3-json" })).final,
    );
    const required = '[{"name":"f","parameters":{"x":1}},{"name":"g","parameters":{}}]';
    const asked = stream(required, plan("required"));
    expect(asked.calls).toEqual(asked.final);
    expect(asked.final).toHaveLength(2);
    const named = stream('{"city":"Paris"}', plan("named", { name: "get_weather" }));
    expect(named.calls).toEqual([
      { id: "id-0", type: "function", function: { name: "get_weather", arguments: '{"city":"Paris"}' } },
    ]);
    expect(named.deltas.length).toBeGreaterThan(3);
  });

  it("keeps to the first call without parallel calls", () => {
    const two =
      '<tool_call>{"name": "f", "arguments": {}}</tool_call><tool_call>{"name": "g", "arguments": {}}</tool_call>';
    const first = stream(two, plan("auto", { parallel: false }));
    expect(first.calls).toEqual(first.final);
    expect(first.calls).toHaveLength(1);
  });
});
