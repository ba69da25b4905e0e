// Request bodies: the fields the openai policy sends become a typed request with defaults; bad ones are a 400
// naming the field; fields that would change the answer and cannot be honoured are refused (at any value but
// their neutral one), fields that never change it are ignored, unknown fields are ignored and named (refused with
// strict); vLLM's sampling fields and template fields are read.
import { describe, expect, it } from "vitest";
import { HttpError } from "../../src/serve/errors.js";
import { parseChatRequest } from "../../src/serve/request.js";

const messages = [{ role: "user", content: "hi" }];

function refusal(body: unknown): HttpError {
  try {
    parseChatRequest(body, 8, 260);
  } catch (error) {
    if (error instanceof HttpError) return error;
    throw error;
  }
  throw new Error("accepted");
}

describe("chat request", () => {
  it("reads what the openai policy sends, with OpenAI's defaults for the rest", () => {
    const plain = parseChatRequest({ model: "m", messages }, 8, 260);
    expect(plain).toMatchObject({
      model: "m",
      messages: [{ role: "user", content: "hi" }],
      logprobs: false,
      topLogprobs: 0,
      tools: [],
      toolChoice: "none",
      parallelToolCalls: true,
    });
    expect(plain.sampling).toMatchObject({
      temperature: 1,
      topP: 1,
      n: 1,
      maxTokens: undefined,
      seeded: false,
      returnTokenIds: false,
      tokensAsIds: false,
      stream: false,
      includeUsage: false,
      continuousUsage: false,
    });
    expect(plain.sampling.stop).toEqual({
      strings: [],
      tokens: [256],
      ends: [256],
      minTokens: 0,
      includeInOutput: false,
    });
    const full = parseChatRequest(
      {
        model: "m",
        temperature: 0.5,
        top_p: 0.9,
        n: 3,
        max_tokens: 7,
        seed: 4294967295,
        logprobs: true,
        top_logprobs: 3,
        return_token_ids: true,
        return_tokens_as_token_ids: true,
        stream: true,
        stream_options: { include_usage: true },
        tools: [{ type: "function", function: { name: "f" } }],
        tool_choice: "auto",
        user: "ignored",
        top_k: -1,
        stop: ["\n", "END"],
        stop_token_ids: [46],
        min_tokens: 2,
        ignore_eos: true,
        include_stop_str_in_output: true,
        messages: [
          {
            role: "developer",
            content: [
              { type: "text", text: "a" },
              { type: "text", text: "b" },
            ],
          },
          {
            role: "assistant",
            content: null,
            tool_calls: [
              { id: "c1", type: "function", function: { name: "cd", arguments: '{"x": 1}' } },
              { function: { name: "ls", arguments: { all: true } } },
            ],
          },
          { role: "tool", tool_call_id: "c1", content: "done" },
          { role: "assistant", content: null },
        ],
      },
      8,
      260,
    );
    expect(full.messages).toEqual([
      { role: "system", content: "a\nb" },
      {
        role: "assistant",
        content: "",
        toolCalls: [
          { id: "c1", name: "cd", arguments: '{"x": 1}' },
          { id: "call_1_1", name: "ls", arguments: '{"all":true}' },
        ],
      },
      { role: "tool", content: "done", toolCallId: "c1" },
      { role: "assistant", content: "" },
    ]);
    expect(full).toMatchObject({
      logprobs: true,
      topLogprobs: 3,
      tools: [{ name: "f", parameters: undefined }],
      toolChoice: "auto",
    });
    expect(full.sampling).toMatchObject({
      temperature: 0.5,
      topP: 0.9,
      n: 3,
      maxTokens: 7,
      seed: 4294967295,
      seeded: true,
      returnTokenIds: true,
      tokensAsIds: true,
      stream: true,
      includeUsage: true,
    });
    expect(full.sampling.stop).toEqual({
      strings: [
        { text: "\n", tokens: [10] },
        { text: "END", tokens: [69, 78, 68] },
      ],
      tokens: [46],
      ends: [256],
      minTokens: 2,
      includeInOutput: true,
    });
    expect(
      parseChatRequest({ model: "m", messages, max_completion_tokens: 5, temperature: null }, 8, 260).sampling,
    ).toMatchObject({ maxTokens: 5, temperature: 1 });
    expect(parseChatRequest({ model: "m", messages, stop: "x" }, 8, 260).sampling.stop.strings).toEqual([
      { text: "x", tokens: [120] },
    ]);
  });

  it("draws a fresh seed for a request without one, and keeps the one given", () => {
    const seeds = new Set(
      Array.from({ length: 5 }, () => parseChatRequest({ model: "m", messages }, 8, 260).sampling.seed),
    );
    expect(seeds.size).toBe(5);
    expect(parseChatRequest({ model: "m", messages, seed: 0 }, 8, 260).sampling).toMatchObject({
      seed: 0,
      seeded: true,
    });
  });

  it("answers a bad field with a 400 that names it", () => {
    const cases: [unknown, RegExp][] = [
      [[1, 2], /^the body must be a JSON object$/],
      [{ messages }, /^model: is required$/],
      [{ model: "m" }, /^messages: is required$/],
      [{ model: "m", messages: [] }, /^messages: needs at least one message$/],
      [
        { model: "m", messages: [{ role: "wizard", content: "x" }] },
        /^messages\[0\]\.role: expected one of system, developer, user, assistant, tool$/,
      ],
      [
        { model: "m", messages: [{ role: "user", content: 3 }] },
        /^messages\[0\]\.content: expected a string or an array of text parts$/,
      ],
      [{ model: "m", messages, temperature: 3 }, /^temperature: expected a number from 0 to 2$/],
      [{ model: "m", messages, top_p: 0 }, /^top_p: expected a number in \(0, 1\]$/],
      [{ model: "m", messages, n: 9 }, /^n: at most 8 choices per request/],
      [{ model: "m", messages, n: 0 }, /^n: expected an integer >= 1$/],
      [{ model: "m", messages, max_tokens: 2.5 }, /^max_tokens: expected an integer >= 1$/],
      [{ model: "m", messages, seed: 2 ** 60 }, /^seed: expected a safe integer$/],
      [{ model: "m", messages, stop: ["a", ""] }, /^stop\[1\]: a stop string cannot be empty$/],
      [{ model: "m", messages, stop: Array.from({ length: 65 }, () => "x") }, /^stop: at most 64 stop strings/],
      [{ model: "m", messages, stop: 3 }, /^stop: expected a string or an array of strings$/],
      [{ model: "m", messages, stop_token_ids: [300] }, /^stop_token_ids\[0\]: not a token of this model/],
      [{ model: "m", messages, top_logprobs: 2 }, /^top_logprobs: needs logprobs: true$/],
      [{ model: "m", messages, logprobs: true, top_logprobs: 21 }, /^top_logprobs: expected an integer from 0 to 20$/],
      [
        { model: "m", messages, stream_options: { include_usage: true } },
        /^stream_options: is only allowed with stream: true$/,
      ],
      [{ model: "m", messages, tool_choice: "required" }, /^tool_choice: needs tools/],
      [
        {
          model: "m",
          messages,
          tools: [{ function: { name: "f" } }],
          tool_choice: { type: "function", function: { name: "g" } },
        },
        /^tool_choice\.function\.name: no tool is named "g" \(the tools offered: f\)$/,
      ],
      [{ model: "m", messages, tool_choice: "sometimes" }, /^tool_choice: expected "none", "auto", "required"/],
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
      [
        [{ function: { name: "f", parameters: "x" } }],
        "tools[0].function.parameters",
        'expected a JSON Schema object, e.g. {"type": "object", "properties": {...}}',
      ],
      [
        [{ function: { name: "f", parameters: [{ type: "string" }] } }],
        "tools[0].function.parameters",
        'expected a JSON Schema object, e.g. {"type": "object", "properties": {...}}',
      ],
      [
        [{ function: { name: "f", parameters: { type: "string" } } }],
        "tools[0].function.parameters.type",
        'a function\'s arguments are a JSON object: expected "object", got "string"',
      ],
      [
        [{ function: { name: "f", parameters: { type: "object", properties: ["a"] } } }],
        "tools[0].function.parameters.properties",
        "expected an object of JSON Schemas, one per argument",
      ],
      [
        [{ function: { name: "f", parameters: { type: "object", required: "a" } } }],
        "tools[0].function.parameters.required",
        "expected an array of argument names",
      ],
      [[{ function: { name: "f", description: 7 } }], "tools[0].function.description", "expected a string"],
    ];
    for (const [tools, param, message] of cases) {
      const error = refusal({ model: "m", messages, tools });
      expect(error.status, JSON.stringify(tools)).toBe(400);
      expect(error.param, JSON.stringify(tools)).toBe(param);
      expect(error.message, JSON.stringify(tools)).toBe(`${param}: ${message}`);
    }
    const good = [
      {
        type: "function",
        function: {
          name: "ls",
          description: "list files",
          parameters: { type: "object", properties: { a: { type: "string" } }, required: ["a"] },
          strict: false,
        },
      },
      { function: { name: "pwd" } },
      { function: { name: "noop", parameters: {} } },
      { function: { name: "none", parameters: null, description: null } },
    ];
    expect(parseChatRequest({ model: "m", messages, tools: good }, 8, 260).tools).toHaveLength(4);
  });

  it("refuses fields it cannot honour, unless neutral; ignores those that never change the answer; names unknown ones", () => {
    const refused: [string, unknown][] = [
      ["best_of", 2],
      ["use_beam_search", true],
      ["length_penalty", 2],
      ["skip_special_tokens", false],
      ["chat_template", "{{x}}"],
      ["logits_processors", ["x"]],
      ["functions", [{ name: "f" }]],
      ["structural_tag", { type: "structural_tag" }],
    ];
    for (const [field, value] of refused) {
      const error = refusal({ model: "m", messages, [field]: value });
      expect(error.message, field).toMatch(new RegExp(`^${field}: is not supported by budgetrl serve: `));
      expect(error.param).toBe(field);
      expect(error.status).toBe(400);
    }
    expect(parseChatRequest({ model: "m", messages, top_a: 0.1, zeta: 1 }, 8, 260).ignoredFields).toEqual([
      "top_a",
      "zeta",
    ]);
    expect(() => parseChatRequest({ model: "m", messages, top_a: 0.1 }, 8, 260, { strict: true })).toThrow(
      /^top_a: is not a field budgetrl serve knows, so it is refused rather than ignored/,
    );
    const neutral = {
      stop: null,
      best_of: 1,
      skip_special_tokens: true,
      add_generation_prompt: true,
      prompt_logprobs: null,
    };
    const ignored = {
      user: "u",
      metadata: { a: "b" },
      store: false,
      service_tier: "auto",
      request_id: "r",
      priority: 3,
      cache_salt: "s",
      reasoning_effort: "low",
      spaces_between_special_tokens: false,
      guided_decoding_backend: "xgrammar",
    };
    const read = parseChatRequest(
      { model: "m", messages, ...neutral, ...ignored, top_logprobs: 0, tool_choice: "none" },
      8,
      260,
      { strict: true },
    );
    expect(read.ignoredFields).toEqual([]);
  });

  it("reads vLLM's sampling fields: top_k, min_p, penalties, logit_bias, allowed tokens, bad words, prompt log-probs", () => {
    const read = parseChatRequest(
      {
        model: "m",
        messages,
        top_k: 20,
        min_p: 0.1,
        repetition_penalty: 1.1,
        presence_penalty: 0.5,
        frequency_penalty: -1,
        logit_bias: { "65": 150, "66": 0, "7": -3 },
        allowed_token_ids: [65, 256],
        bad_words: ["no"],
        truncate_prompt_tokens: 10,
        prompt_logprobs: 1,
        echo: true,
      },
      8,
      260,
      { strict: true },
    );
    expect(read.sampling).toMatchObject({
      topK: 20,
      minP: 0.1,
      penalties: {
        repetition: 1.1,
        presence: 0.5,
        frequency: -1,
        logitBias: [
          [7, -3],
          [65, 100],
        ],
      },
      allowedTokens: [65, 256],
      badWords: ["no"],
      truncatePromptTokens: 10,
      promptLogprobs: 1,
      echo: true,
    });
    expect(parseChatRequest({ model: "m", messages, top_k: -1, prompt_logprobs: -1 }, 8, 260).sampling).toMatchObject({
      topK: 0,
      promptLogprobs: 260,
    });
    const bad: [Record<string, unknown>, string, RegExp][] = [
      [{ top_k: -2 }, "top_k", /expected -1, 0 \(off\) or an integer >= 1/],
      [{ min_p: 2 }, "min_p", /expected a number from 0 to 1/],
      [{ repetition_penalty: 0 }, "repetition_penalty", /expected a number in \(0, 2\]/],
      [{ presence_penalty: 3 }, "presence_penalty", /expected a number from -2 to 2/],
      [{ logit_bias: { x: 1 } }, "logit_bias.x", /not a token of this model/],
      [{ logit_bias: { "999": 1 } }, "logit_bias.999", /not a token of this model/],
      [{ allowed_token_ids: [999] }, "allowed_token_ids[0]", /not a token of this model/],
      [{ truncate_prompt_tokens: 0 }, "truncate_prompt_tokens", /expected -1 or an integer >= 1/],
    ];
    for (const [fields, param, message] of bad) {
      const error = refusal({ model: "m", messages, ...fields });
      expect(error.param, param).toBe(param);
      expect(error.message, param).toMatch(message);
    }
  });

  it("reads the template fields: chat_template_kwargs, add_generation_prompt, continue_final_message, documents", () => {
    const continuing = parseChatRequest(
      {
        model: "m",
        messages: [...messages, { role: "assistant", content: "It is" }],
        add_generation_prompt: false,
        continue_final_message: true,
        chat_template_kwargs: { enable_thinking: false },
        documents: [{ title: "t", text: "x" }],
      },
      8,
      260,
    );
    expect(continuing).toMatchObject({
      addGenerationPrompt: false,
      continueFinalMessage: true,
      templateKwargs: { enable_thinking: false },
      documents: [{ title: "t", text: "x" }],
    });
    expect(refusal({ model: "m", messages, continue_final_message: true }).message).toMatch(
      /^continue_final_message: cannot be combined with add_generation_prompt true/,
    );
    expect(
      refusal({ model: "m", messages, continue_final_message: true, add_generation_prompt: false }).message,
    ).toMatch(/needs the last message to be the assistant's/);
    expect(refusal({ model: "m", messages, chat_template_kwargs: { tools: [] } }).param).toBe(
      "chat_template_kwargs.tools",
    );
    const tools = [{ type: "function", function: { name: "f" } }];
    expect(
      refusal({ model: "m", messages, tools, tool_choice: "required", response_format: { type: "json_object" } })
        .message,
    ).toMatch(/^response_format: cannot be combined with tool_choice "required"/);
  });

  it("reads tool_choice: none, auto (the default with tools), required, or a named function of the tools", () => {
    const tools = [
      { type: "function", function: { name: "f" } },
      { type: "function", function: { name: "g", parameters: { type: "object" } } },
    ];
    expect(parseChatRequest({ model: "m", messages, tools }, 8, 260).toolChoice).toBe("auto");
    expect(
      parseChatRequest({ model: "m", messages, tools, tool_choice: "required", parallel_tool_calls: false }, 8, 260),
    ).toMatchObject({ toolChoice: "required", parallelToolCalls: false });
    expect(
      parseChatRequest(
        { model: "m", messages, tools, tool_choice: { type: "function", function: { name: "g" } } },
        8,
        260,
      ).toolChoice,
    ).toEqual({ name: "g" });
    expect(parseChatRequest({ model: "m", messages, tools, tool_choice: "none" }, 8, 260).toolChoice).toBe("none");
  });
});
