// Request bodies: the fields the openai policy sends become a typed request with defaults; bad ones are a 400
// naming the field; options that would change the answer and cannot be honoured are refused, others ignored.
import { describe, expect, it } from "vitest";
import { HttpError } from "../../src/serve/errors.js";
import { parseChatRequest } from "../../src/serve/request.js";

const messages = [{ role: "user", content: "hi" }];

function refusal(body: unknown): HttpError {
  try {
    parseChatRequest(body, 8);
  } catch (error) {
    if (error instanceof HttpError) return error;
    throw error;
  }
  throw new Error("accepted");
}

describe("chat request", () => {
  it("reads what the openai policy sends, with OpenAI's defaults for the rest", () => {
    expect(parseChatRequest({ model: "m", messages }, 8)).toEqual({
      model: "m", messages: [{ role: "user", content: "hi" }], temperature: 1, topP: 1, n: 1, maxTokens: undefined, seed: 0,
      logprobs: false, returnTokenIds: false, tokensAsIds: false, stream: false, includeUsage: false, tools: 0,
    });
    const full = parseChatRequest({
      model: "m", temperature: 0.5, top_p: 0.9, n: 3, max_tokens: 7, seed: 4294967295, logprobs: true, return_token_ids: true, return_tokens_as_token_ids: true,
      stream: true, stream_options: { include_usage: true }, tools: [{ type: "function", function: { name: "f" } }], tool_choice: "auto", user: "ignored", top_k: -1,
      messages: [
        { role: "developer", content: [{ type: "text", text: "a" }, { type: "text", text: "b" }] },
        { role: "assistant", content: null, tool_calls: [{ id: "c1", type: "function", function: { name: "cd", arguments: '{"x": 1}' } }, { function: { name: "ls", arguments: { all: true } } }] },
        { role: "tool", tool_call_id: "c1", content: "done" },
        { role: "assistant", content: null },
      ],
    }, 8);
    expect(full.messages).toEqual([
      { role: "system", content: "a\nb" },
      { role: "assistant", content: "", toolCalls: [{ id: "c1", name: "cd", arguments: '{"x": 1}' }, { id: "call_1_1", name: "ls", arguments: '{"all":true}' }] },
      { role: "tool", content: "done", toolCallId: "c1" },
      { role: "assistant", content: "" },
    ]);
    expect(full).toMatchObject({ temperature: 0.5, topP: 0.9, n: 3, maxTokens: 7, seed: 4294967295, logprobs: true, returnTokenIds: true, tokensAsIds: true, stream: true, includeUsage: true, tools: 1 });
    expect(parseChatRequest({ model: "m", messages, max_completion_tokens: 5, temperature: null }, 8)).toMatchObject({ maxTokens: 5, temperature: 1 });
  });

  it("answers a bad field with a 400 that names it", () => {
    const cases: [unknown, RegExp][] = [
      [[1, 2], /^the body must be a JSON object$/],
      [{ messages }, /^model: is required$/],
      [{ model: "m" }, /^messages: is required$/],
      [{ model: "m", messages: [] }, /^messages: needs at least one message$/],
      [{ model: "m", messages: [{ role: "wizard", content: "x" }] }, /^messages\[0\]\.role: expected one of system, developer, user, assistant, tool$/],
      [{ model: "m", messages: [{ role: "user", content: 3 }] }, /^messages\[0\]\.content: expected a string or an array of text parts$/],
      [{ model: "m", messages, temperature: 3 }, /^temperature: expected a number from 0 to 2$/],
      [{ model: "m", messages, top_p: 0 }, /^top_p: expected a number in \(0, 1\]$/],
      [{ model: "m", messages, n: 9 }, /^n: at most 8 choices per request/],
      [{ model: "m", messages, n: 0 }, /^n: expected an integer >= 1$/],
      [{ model: "m", messages, max_tokens: 2.5 }, /^max_tokens: expected an integer >= 1$/],
      [{ model: "m", messages, seed: 2 ** 60 }, /^seed: expected a safe integer$/],
    ];
    for (const [body, message] of cases) {
      const error = refusal(body);
      expect(error.status).toBe(400);
      expect(error.type).toBe("invalid_request_error");
      expect(error.message).toMatch(message);
    }
    expect(refusal({ model: "m", messages, n: 9 }).param).toBe("n");
  });

  it("checks tools as OpenAI-compatible servers do: a function with a name, parameters a JSON Schema object", () => {
    const cases: [unknown, string, string][] = [
      [[{ type: "function" }], "tools[0].function", "is required"],
      [[{ type: "function", function: { name: "f" } }, {}], "tools[1].function", "is required"],
      [[{ function: {} }], "tools[0].function.name", "is required"],
      [[{ function: { name: "" } }], "tools[0].function.name", "expected the function's name"],
      [[{ function: "f" }], "tools[0].function", "expected an object {name, description, parameters}"],
      [[{ type: "custom", function: { name: "f" } }], "tools[0].type", 'expected "function"'],
      [[3], "tools[0]", 'expected a tool, {"type": "function", "function": {...}}'],
      [{ type: "function" }, "tools", "expected an array of tools"],
      [[{ function: { name: "f", parameters: "x" } }], "tools[0].function.parameters", 'expected a JSON Schema object, e.g. {"type": "object", "properties": {...}}'],
      [[{ function: { name: "f", parameters: [{ type: "string" }] } }], "tools[0].function.parameters", 'expected a JSON Schema object, e.g. {"type": "object", "properties": {...}}'],
      [[{ function: { name: "f", parameters: { type: "string" } } }], "tools[0].function.parameters.type", 'a function\'s arguments are a JSON object: expected "object", got "string"'],
      [[{ function: { name: "f", parameters: { type: "object", properties: ["a"] } } }], "tools[0].function.parameters.properties", "expected an object of JSON Schemas, one per argument"],
      [[{ function: { name: "f", parameters: { type: "object", required: "a" } } }], "tools[0].function.parameters.required", "expected an array of argument names"],
      [[{ function: { name: "f", description: 7 } }], "tools[0].function.description", "expected a string"],
    ];
    for (const [tools, param, message] of cases) {
      const error = refusal({ model: "m", messages, tools });
      expect(error.status, JSON.stringify(tools)).toBe(400);
      expect(error.param, JSON.stringify(tools)).toBe(param);
      expect(error.message, JSON.stringify(tools)).toBe(`${param}: ${message}`);
    }
    const good = [
      { type: "function", function: { name: "ls", description: "list files", parameters: { type: "object", properties: { a: { type: "string" } }, required: ["a"] }, strict: false } },
      { function: { name: "pwd" } },
      { function: { name: "noop", parameters: {} } },
      { function: { name: "none", parameters: null, description: null } },
    ];
    expect(parseChatRequest({ model: "m", messages, tools: good }, 8).tools).toBe(4);
  });

  it("refuses options it cannot honour, and accepts them at their neutral values", () => {
    for (const [field, value] of [["stop", ["\n"]], ["logit_bias", { "65": 10 }], ["presence_penalty", 0.5], ["response_format", { type: "json_object" }], ["top_k", 20], ["repetition_penalty", 1.1]] as const) {
      expect(refusal({ model: "m", messages, [field]: value }).message).toMatch(new RegExp(`^${field}: is not supported by budgetrl serve`));
    }
    expect(refusal({ model: "m", messages, logprobs: true, top_logprobs: 2 }).message).toMatch(/^top_logprobs: is not supported by budgetrl serve/);
    expect(refusal({ model: "m", messages, tool_choice: "required" }).message).toMatch(/^tool_choice: only "auto" and "none"/);
    expect(() => parseChatRequest({ model: "m", messages, stop: null, logit_bias: {}, presence_penalty: 0, frequency_penalty: null, response_format: { type: "text" }, top_logprobs: 0, tool_choice: "none" }, 8)).not.toThrow();
  });
});
