import { describe, expect, it } from "vitest";
import { parseSamplingOptions } from "../../../src/policies/openai/options.js";
import { chatRequest } from "../../../src/policies/openai/request.js";

describe("chatRequest", () => {
  const tools = [
    { name: "ls", description: "list files", parameters: { type: "dict", properties: { a: { type: "boolean" } } } },
  ];

  it("maps system, user, assistant tool calls (malformed arguments kept as written) and tool results", () => {
    const body = chatRequest(
      "m",
      [
        { role: "system", content: "sys" },
        { role: "user", content: "list" },
        { role: "assistant", content: "", toolCalls: [{ id: "c1", name: "ls", arguments: "{not json" }] },
        { role: "tool", content: "error: bad arguments", toolCallId: "c1" },
        { role: "assistant", content: "done" },
      ],
      tools,
      parseSamplingOptions({}),
    );
    expect(body["messages"]).toEqual([
      { role: "system", content: "sys" },
      { role: "user", content: "list" },
      {
        role: "assistant",
        content: null,
        tool_calls: [{ id: "c1", type: "function", function: { name: "ls", arguments: "{not json" } }],
      },
      { role: "tool", tool_call_id: "c1", content: "error: bad arguments" },
      { role: "assistant", content: "done" },
    ]);
    expect(body["tools"]).toEqual([
      { type: "function", function: { name: "ls", description: "list files", parameters: tools[0]?.parameters } },
    ]);
    expect(body).toMatchObject({ model: "m", temperature: 1, top_p: 1 });
    expect(body).not.toHaveProperty("seed");
    expect(body).not.toHaveProperty("n");
    expect(body).not.toHaveProperty("logprobs");
  });

  it("sends no tools for plain chat, and the sampling fields and extra body as given", () => {
    const sampling = parseSamplingOptions({
      temperature: "0.5",
      topP: "0.9",
      maxTokens: "64",
      logprobs: "true",
      topLogprobs: "2",
      tokenIds: "true",
      extraBody: '{"top_k": 20, "chat_template_kwargs": {"enable_thinking": false}}',
    });
    const body = chatRequest("m", [{ role: "user", content: "hi" }], [], sampling);
    expect(body).not.toHaveProperty("tools");
    expect(body).toEqual({
      model: "m",
      messages: [{ role: "user", content: "hi" }],
      temperature: 0.5,
      top_p: 0.9,
      max_tokens: 64,
      logprobs: true,
      top_logprobs: 2,
      return_token_ids: true,
      return_tokens_as_token_ids: true,
      top_k: 20,
      chat_template_kwargs: { enable_thinking: false },
    });
  });

  it("refuses bad sampling options, naming them", () => {
    expect(() => parseSamplingOptions({ temperature: "hot" })).toThrow(
      /openai.temperature: expected a number from 0 to 2/,
    );
    expect(() => parseSamplingOptions({ maxTokens: "0" })).toThrow(/openai.maxTokens: expected an integer >= 1/);
    expect(() => parseSamplingOptions({ extraBody: "[1]" })).toThrow(/openai.extraBody: expected a JSON object/);
    expect(() => parseSamplingOptions({ extraBody: '{"seed": 3}' })).toThrow(
      /openai.extraBody: may not set model, messages/,
    );
    expect(() => parseSamplingOptions({ temprature: "1" })).toThrow(/openai.temprature: unknown option/);
  });
});
