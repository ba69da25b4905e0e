// Tool calls in reply text: the Hermes/Qwen <tool_call> blocks and Llama 3's JSON objects, malformed calls kept as
// calls the env can refuse (never a throw), and the writer that parseToolCalls reads back.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseToolCalls, writeToolCalls } from "../../src/policies/tool-call-text.js";

describe("hermes (Qwen) <tool_call> blocks", () => {
  it("reads every block with the arguments as the model wrote them, and the text before as content", () => {
    const reply =
      '<think>\nTwo cities.\n</think>\n\nLet me check.\n<tool_call>\n{"name": "get_weather", "arguments": {"city": "Paris", "days": 1.0}}\n</tool_call>\n<tool_call>\n{"name": "get_weather", "arguments": {"city": "東京"}}\n</tool_call>';
    expect(parseToolCalls(reply, "hermes")).toEqual({
      content: "<think>\nTwo cities.\n</think>\n\nLet me check.",
      toolCalls: [
        { id: "call_0", name: "get_weather", arguments: '{"city": "Paris", "days": 1.0}' },
        { id: "call_1", name: "get_weather", arguments: '{"city": "東京"}' },
      ],
    });
  });

  it("leaves a reply without blocks as text, and gives a call without arguments {}", () => {
    expect(parseToolCalls("Paris is sunny.", "hermes")).toEqual({ content: "Paris is sunny.", toolCalls: [] });
    expect(parseToolCalls('<tool_call>{"name": "ls"}</tool_call>', "hermes").toolCalls).toEqual([
      { id: "call_0", name: "ls", arguments: "{}" },
    ]);
  });

  it("turns a malformed block into a call the env refuses: bad JSON, no name, a block cut before </tool_call>", () => {
    const reply =
      '<tool_call>\n{"name": "f", "arguments": {"a": 1,}}\n</tool_call><tool_call>{"arguments": {}}</tool_call><tool_call>\n{"name": "g", "argu';
    expect(parseToolCalls(reply, "hermes").toolCalls).toEqual([
      { id: "call_0", name: "", arguments: '{"name": "f", "arguments": {"a": 1,}}' },
      { id: "call_1", name: "", arguments: '{"arguments": {}}' },
      { id: "call_2", name: "", arguments: '{"name": "g", "argu' },
    ]);
    // A name that is not a string is no name; arguments that are not an object stay as written (the env checks them).
    expect(
      parseToolCalls(
        '<tool_call>{"name": 3, "arguments": {}}</tool_call><tool_call>{"name": "f", "arguments": "x=1"}</tool_call>',
        "hermes",
      ).toolCalls,
    ).toEqual([
      { id: "call_0", name: "", arguments: '{"name": 3, "arguments": {}}' },
      { id: "call_1", name: "f", arguments: '"x=1"' },
    ]);
  });

  it("never runs code: a body that looks like a program is text", () => {
    const reply = "<tool_call>\n(() => { throw new Error('ran') })()\n</tool_call>";
    expect(parseToolCalls(reply, "hermes").toolCalls).toEqual([
      { id: "call_0", name: "", arguments: "(() => { throw new Error('ran') })()" },
    ]);
  });
});

describe("llama3-json", () => {
  it("reads one or more JSON calls (parameters or arguments), after an optional <|python_tag|>", () => {
    expect(parseToolCalls(' {"name": "get_weather", "parameters": {"city": "Paris"}}', "llama3-json")).toEqual({
      content: "",
      toolCalls: [{ id: "call_0", name: "get_weather", arguments: '{"city": "Paris"}' }],
    });
    expect(
      parseToolCalls(
        '<|python_tag|>{"name": "a", "arguments": {}}; {"name": "b", "parameters": {"x": [1, 2]}}',
        "llama3-json",
      ).toolCalls,
    ).toEqual([
      { id: "call_0", name: "a", arguments: "{}" },
      { id: "call_1", name: "b", arguments: '{"x": [1, 2]}' },
    ]);
  });

  it("leaves text that does not start with { as text; a bad object or trailing text is a malformed call", () => {
    expect(parseToolCalls("The weather is {sunny}.", "llama3-json")).toEqual({
      content: "The weather is {sunny}.",
      toolCalls: [],
    });
    expect(parseToolCalls('{"name": "f", "parameters": {"a": 1}} and then', "llama3-json").toolCalls).toEqual([
      { id: "call_0", name: "f", arguments: '{"a": 1}' },
      { id: "call_1", name: "", arguments: "and then" },
    ]);
    expect(parseToolCalls("{name: f}", "llama3-json").toolCalls).toEqual([
      { id: "call_0", name: "", arguments: "{name: f}" },
    ]);
  });
});

describe("writeToolCalls", () => {
  it("writes what Qwen3's and Llama 3's templates write", () => {
    const calls = [
      { id: "x", name: "f", arguments: '{"a": 1}' },
      { id: "y", name: "g", arguments: "{}" },
    ];
    expect(writeToolCalls("Sure.", calls, "hermes")).toBe(
      'Sure.\n<tool_call>\n{"name": "f", "arguments": {"a": 1}}\n</tool_call>\n<tool_call>\n{"name": "g", "arguments": {}}\n</tool_call>',
    );
    expect(writeToolCalls("", calls.slice(0, 1), "hermes")).toBe(
      '<tool_call>\n{"name": "f", "arguments": {"a": 1}}\n</tool_call>',
    );
    expect(writeToolCalls("", calls, "llama3-json")).toBe(
      '{"name": "f", "parameters": {"a": 1}}; {"name": "g", "parameters": {}}',
    );
    expect(writeToolCalls("just text", [], "llama3-json")).toBe("just text");
    expect(writeToolCalls("<think>\nR\n</think>", calls.slice(1), "hermes")).toBe(
      '<think>\nR\n</think>\n\n<tool_call>\n{"name": "g", "arguments": {}}\n</tool_call>',
    );
  });

  it("is read back by parseToolCalls for any names, JSON arguments and content", () => {
    const name = fc.stringMatching(/^[A-Za-z_][A-Za-z0-9_.]{0,12}$/);
    const args = fc.dictionary(fc.string(), fc.jsonValue()).map((value) => JSON.stringify(value));
    const content = fc.string().map((text) => text.replaceAll("<tool_call>", "").trimEnd());
    fc.assert(
      fc.property(
        fc.constantFrom("hermes" as const, "llama3-json" as const),
        content,
        fc.array(fc.tuple(name, args), { minLength: 1, maxLength: 3 }),
        (format, text, pairs) => {
          const calls = pairs.map(([callName, callArguments], index) => ({
            id: `call_${index}`,
            name: callName,
            arguments: callArguments,
          }));
          const parsed = parseToolCalls(writeToolCalls(text, calls, format), format);
          expect(parsed.toolCalls).toEqual(calls);
          expect(parsed.content).toBe(format === "hermes" ? text : "");
        },
      ),
    );
  });
});
