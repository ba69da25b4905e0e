// Response bodies: a chat.completion with choices (text or tool calls, finish and stop reasons), log-probs with
// their alternatives aligned with token ids, prompt token ids and usage.
import { describe, expect, it } from "vitest";
import { END } from "../../src/nn/tokenizer.js";
import { chatCompletionBody, type ChatAnswer } from "../../src/serve/response.js";

const answer: ChatAnswer = {
  promptTokens: [258, 104, 105, 256, 259],
  choices: [
    {
      index: 0,
      tokens: [85, 112, END],
      logprobs: [-0.5, -0.1, -0.01],
      alternatives: [
        [
          { token: 85, logprob: -0.5 },
          { token: 68, logprob: -1.5 },
        ],
        [{ token: 112, logprob: -0.1 }],
        [{ token: END, logprob: -0.01 }],
      ],
      content: "Up",
      toolCalls: [],
      finishReason: "stop",
      stopReason: null,
    },
    {
      index: 1,
      tokens: [0xc3, 0xa9, 0xff],
      logprobs: [-1, -2, -Infinity],
      alternatives: undefined,
      content: "é\uFFFD",
      toolCalls: [],
      finishReason: "length",
      stopReason: null,
    },
    {
      index: 2,
      tokens: [123, 125, END],
      logprobs: [-1, -1, -1],
      alternatives: undefined,
      content: null,
      toolCalls: [{ id: "call_1", name: "f", arguments: "{}" }],
      finishReason: "tool_calls",
      stopReason: null,
    },
  ],
};
const meta = { id: "chatcmpl-1", created: 7, model: "m" };
const flags = { logprobs: false, returnTokenIds: false, tokensAsIds: false };

describe("responses", () => {
  it("writes a chat.completion: choices with text or tool calls, finish and stop reasons, usage", () => {
    expect(chatCompletionBody(answer, flags, meta)).toEqual({
      id: "chatcmpl-1",
      object: "chat.completion",
      created: 7,
      model: "m",
      choices: [
        {
          index: 0,
          message: { role: "assistant", content: "Up" },
          logprobs: null,
          finish_reason: "stop",
          stop_reason: null,
        },
        {
          index: 1,
          message: { role: "assistant", content: "é\uFFFD" },
          logprobs: null,
          finish_reason: "length",
          stop_reason: null,
        },
        {
          index: 2,
          message: {
            role: "assistant",
            content: null,
            tool_calls: [{ id: "call_1", type: "function", function: { name: "f", arguments: "{}" } }],
          },
          logprobs: null,
          finish_reason: "tool_calls",
          stop_reason: null,
        },
      ],
      usage: { prompt_tokens: 5, completion_tokens: 9, total_tokens: 14 },
    });
  });

  it("gives log-probs per sampled token with their alternatives, as texts with their bytes or as token ids, and the token ids asked for", () => {
    const body = chatCompletionBody(answer, { ...flags, logprobs: true }, meta) as {
      choices: { logprobs: { content: unknown[] } }[];
    };
    expect(body.choices[0]!.logprobs.content).toEqual([
      {
        token: "U",
        logprob: -0.5,
        bytes: [85],
        top_logprobs: [
          { token: "U", logprob: -0.5, bytes: [85] },
          { token: "D", logprob: -1.5, bytes: [68] },
        ],
      },
      { token: "p", logprob: -0.1, bytes: [112], top_logprobs: [{ token: "p", logprob: -0.1, bytes: [112] }] },
      {
        token: "<|end|>",
        logprob: -0.01,
        bytes: null,
        top_logprobs: [{ token: "<|end|>", logprob: -0.01, bytes: null }],
      },
    ]);
    expect(body.choices[1]!.logprobs.content[0]).toEqual({
      token: "\uFFFD",
      logprob: -1,
      bytes: [0xc3],
      top_logprobs: [],
    });
    // JSON has no -Infinity: written as vLLM writes it.
    expect(body.choices[1]!.logprobs.content[2]).toMatchObject({ logprob: -9999 });
    const ids = chatCompletionBody(
      answer,
      { ...flags, logprobs: true, returnTokenIds: true, tokensAsIds: true },
      meta,
    ) as { prompt_token_ids: number[]; choices: { token_ids: number[]; logprobs: { content: { token: string }[] } }[] };
    expect(ids.prompt_token_ids).toEqual(answer.promptTokens);
    expect(ids.choices[0]!.token_ids).toEqual([85, 112, END]);
    expect(ids.choices[0]!.logprobs.content.map((entry) => entry.token)).toEqual([
      "token_id:85",
      "token_id:112",
      "token_id:256",
    ]);
  });
});
