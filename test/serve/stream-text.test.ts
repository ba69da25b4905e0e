// Where replies stop and what a stream shows of them: stop strings and tokens end a reply after min_tokens, leave
// the text (unless include_stop_str_in_output) but not the tokens; the text a stream releases token by token
// (held back while a stop string or tool calls may be starting, or a character is incomplete) adds up to the
// text of the whole reply; tool calls are read from the model's text in auto mode and from constrained JSON.
import { describe, expect, it } from "vitest";
import { createRng } from "../../src/core/rng.js";
import { decodeTokens, encodeText, END, USER } from "../../src/nn/tokenizer.js";
import { heldForStop, stopAt, stopRule } from "../../src/serve/stop.js";
import { createTextReleaser } from "../../src/serve/stream.js";
import { heldForCalls, replyCalls, type ToolPlan } from "../../src/serve/tool-choice.js";

const auto: ToolPlan = { mode: "auto", format: "hermes", parallel: true };

describe("stops", () => {
  it("ends a reply at a stop token or string, after min_tokens, the stop out of the text", () => {
    const rule = stopRule({ stop: ["\n\n", "END"], stopTokenIds: [33] });
    expect(stopAt([...encodeText("ab"), END], rule)).toEqual({ textTokens: 3, reason: null });
    expect(stopAt(encodeText("ab!"), rule)).toEqual({ textTokens: 2, reason: 33 });
    expect(stopAt(encodeText("abEND"), rule)).toEqual({ textTokens: 2, reason: "END" });
    expect(stopAt(encodeText("a\n\n"), rule)).toEqual({ textTokens: 1, reason: "\n\n" });
    expect(stopAt(encodeText("a\nb"), rule)).toBeUndefined();
    expect(stopAt(encodeText("END"), stopRule({ stop: ["END"], minTokens: 4 }))).toBeUndefined();
    expect(stopAt(encodeText("aEND"), stopRule({ stop: ["END"], minTokens: 4 }))).toEqual({
      textTokens: 1,
      reason: "END",
    });
    expect(stopAt(encodeText("aEND"), stopRule({ stop: ["END"], includeStopStrInOutput: true }))).toEqual({
      textTokens: 4,
      reason: "END",
    });
    expect(stopAt([...encodeText("a"), END], stopRule({ ignoreEos: true }))).toBeUndefined();
    expect(heldForStop(encodeText("xEN"), rule)).toBe(2);
    expect(heldForStop(encodeText("x\n"), rule)).toBe(1);
    expect(heldForStop(encodeText("xE!"), rule)).toBe(0);
  });
});

describe("stream text", () => {
  it("releases text that adds up to the whole reply's, whatever the stops, bytes and markers", () => {
    const pieces = ["a", "é", "€", "𝄞", "\n", "E", "N", "D", "<tool_call>", " ", "{", "}", "\uFFFD"];
    const rules = [
      stopRule({}),
      stopRule({ stop: ["END", "\n\n"] }),
      stopRule({ stop: ["é€"], includeStopStrInOutput: true }),
    ];
    for (let seed = 0; seed < 300; seed++) {
      const rng = createRng(seed);
      const tokens = Array.from({ length: 1 + rng.int(12) }, () => pieces[rng.int(pieces.length)]!).flatMap((piece) =>
        encodeText(piece),
      );
      // Now and then a broken character or a role marker in mid-reply.
      if (rng.next() < 0.3) tokens.splice(rng.int(tokens.length), 0, rng.next() < 0.5 ? 0xe2 : USER);
      const rule = rules[seed % rules.length]!;
      const plan: ToolPlan = seed % 2 === 0 ? auto : { mode: "none", format: "hermes", parallel: true };
      // The reply ends at its first stop, or at its last token.
      let end = tokens.findIndex((_, i) => stopAt(tokens.slice(0, i + 1), rule) !== undefined);
      if (end === -1) end = tokens.length - 1;
      const reply = tokens.slice(0, end + 1);
      const textTokens = stopAt(reply, rule)?.textTokens ?? reply.length;
      const releaser = createTextReleaser(rule, (text) => heldForCalls(text, plan));
      let streamed = "";
      for (const token of reply.slice(0, -1)) streamed += releaser.push(token);
      const { text, rest } = releaser.finish(reply, textTokens);
      expect(text).toBe(decodeTokens(reply.slice(0, textTokens)));
      expect(streamed).toBe(releaser.released());
      expect(streamed + rest).toBe(text);
      // What auto mode answers as content starts with what the stream released.
      const content = replyCalls(text, plan)?.content ?? text;
      expect(content.startsWith(streamed)).toBe(true);
    }
  });

  it("holds back text that may be tool calls: from <tool_call> on (and the blank before it), a llama3-json reply whole", () => {
    expect(heldForCalls("Sure.\n<tool_", auto)).toBe(7);
    expect(heldForCalls("Sure.\n<tool_call>{", auto)).toBe(13);
    expect(heldForCalls("a < b", auto)).toBe(0);
    expect(heldForCalls("ends with space ", auto)).toBe(1);
    const llama: ToolPlan = { mode: "auto", format: "llama3-json", parallel: true };
    expect(heldForCalls('  {"name"', llama)).toBe(9);
    expect(heldForCalls("<|python_", llama)).toBe(9);
    expect(heldForCalls("Hello {", llama)).toBe(0);
    expect(heldForCalls("anything", { mode: "named", name: "f", format: "hermes", parallel: true })).toBe(8);
  });
});

describe("tool calls of a reply", () => {
  it("reads well-formed calls in auto mode, and leaves malformed ones as text", () => {
    expect(replyCalls('Let me look.\n<tool_call>\n{"name": "f", "arguments": {"a": 1.0}}\n</tool_call>', auto)).toEqual(
      { content: "Let me look.", calls: [{ name: "f", arguments: '{"a": 1.0}' }] },
    );
    expect(
      replyCalls('<tool_call>{"name": "f", "arguments": {}}</tool_call><tool_call>{"name": "g"}</tool_call>', auto),
    ).toEqual({
      content: null,
      calls: [
        { name: "f", arguments: "{}" },
        { name: "g", arguments: "{}" },
      ],
    });
    expect(
      replyCalls('<tool_call>{"name": "f", "arguments": {}}</tool_call><tool_call>{"name": "g"}</tool_call>', {
        ...auto,
        parallel: false,
      })?.calls,
    ).toHaveLength(1);
    expect(replyCalls("<tool_call>{not json}</tool_call>", auto)).toBeUndefined();
    expect(replyCalls('<tool_call>{"name": "f", "arguments": [1]}</tool_call>', auto)).toBeUndefined();
    expect(replyCalls("just words", auto)).toBeUndefined();
    expect(replyCalls('{"name": "f", "parameters": {"x": "y"}}', { ...auto, format: "llama3-json" })).toEqual({
      content: null,
      calls: [{ name: "f", arguments: '{"x": "y"}' }],
    });
    expect(
      replyCalls('<tool_call>{"name": "f", "arguments": {}}</tool_call>', {
        mode: "none",
        format: "hermes",
        parallel: true,
      }),
    ).toBeUndefined();
  });

  it("reads constrained replies: a named function's arguments, a required array of calls", () => {
    expect(replyCalls('{"city":"Paris"}', { mode: "named", name: "w", format: "hermes", parallel: true })).toEqual({
      content: null,
      calls: [{ name: "w", arguments: '{"city":"Paris"}' }],
    });
    expect(
      replyCalls('[{"name":"f","parameters":{"a":1}},{"parameters":{},"name":"g"}]', {
        mode: "required",
        format: "hermes",
        parallel: true,
      }),
    ).toEqual({
      content: null,
      calls: [
        { name: "f", arguments: '{"a":1}' },
        { name: "g", arguments: "{}" },
      ],
    });
    // Cut by a stop string: not a call, the text stays.
    expect(replyCalls('[{"name":"f","param', { mode: "required", format: "hermes", parallel: true })).toBeUndefined();
  });
});
