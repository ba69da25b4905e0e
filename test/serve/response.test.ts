// Response bodies: a chat.completion with choices, log-probs aligned with token ids, prompt token ids and usage;
// a stream's chunks per choice (role, content, finish reason), the usage chunk when asked.
import { describe, expect, it } from "vitest";
import { END } from "../../src/nn/tokenizer.js";
import type { Completion } from "../../src/serve/completions.js";
import { completionBody, streamChunks } from "../../src/serve/response.js";

const completion: Completion = {
  promptTokens: [258, 104, 105, 256, 259],
  choices: [
    { index: 0, tokens: [85, 112, END], logprobs: [-0.5, -0.1, -0.01], text: "Up", finishReason: "stop" },
    { index: 1, tokens: [0xc3, 0xa9, 0xff], logprobs: [-1, -2, -3], text: "é\uFFFD", finishReason: "length" },
  ],
};
const meta = { id: "chatcmpl-1", created: 7, model: "m" };
const flags = { logprobs: false, returnTokenIds: false, tokensAsIds: false, includeUsage: false };

describe("responses", () => {
  it("writes a chat.completion: choices, finish reasons, usage", () => {
    expect(completionBody(completion, flags, meta)).toEqual({
      id: "chatcmpl-1", object: "chat.completion", created: 7, model: "m",
      choices: [
        { index: 0, message: { role: "assistant", content: "Up" }, logprobs: null, finish_reason: "stop" },
        { index: 1, message: { role: "assistant", content: "é\uFFFD" }, logprobs: null, finish_reason: "length" },
      ],
      usage: { prompt_tokens: 5, completion_tokens: 6, total_tokens: 11 },
    });
  });

  it("gives log-probs per sampled token, as texts with their bytes or as token ids, and the token ids asked for", () => {
    const body = completionBody(completion, { ...flags, logprobs: true }, meta) as { choices: { logprobs: { content: unknown[] } }[] };
    expect(body.choices[0]!.logprobs.content).toEqual([
      { token: "U", logprob: -0.5, bytes: [85], top_logprobs: [] },
      { token: "p", logprob: -0.1, bytes: [112], top_logprobs: [] },
      { token: "<|end|>", logprob: -0.01, bytes: null, top_logprobs: [] },
    ]);
    expect(body.choices[1]!.logprobs.content[0]).toEqual({ token: "\uFFFD", logprob: -1, bytes: [0xc3], top_logprobs: [] });
    const ids = completionBody(completion, { ...flags, logprobs: true, returnTokenIds: true, tokensAsIds: true }, meta) as { prompt_token_ids: number[]; choices: { token_ids: number[]; logprobs: { content: { token: string }[] } }[] };
    expect(ids.prompt_token_ids).toEqual(completion.promptTokens);
    expect(ids.choices[0]!.token_ids).toEqual([85, 112, END]);
    expect(ids.choices[0]!.logprobs.content.map((entry) => entry.token)).toEqual(["token_id:85", "token_id:112", "token_id:256"]);
  });

  it("streams each choice as role, content and finish chunks, then the usage chunk when asked", () => {
    const chunks = streamChunks(completion, { ...flags, returnTokenIds: true, includeUsage: true }, meta) as { object: string; choices: { index: number; delta: unknown; finish_reason: string | null; token_ids?: number[] }[]; usage?: unknown; prompt_token_ids?: number[] }[];
    expect(chunks).toHaveLength(7);
    expect(chunks.every((chunk) => chunk.object === "chat.completion.chunk")).toBe(true);
    expect(chunks.slice(0, 6).map((chunk) => [chunk.choices[0]!.index, chunk.choices[0]!.delta, chunk.choices[0]!.finish_reason])).toEqual([
      [0, { role: "assistant", content: "" }, null], [0, { content: "Up" }, null], [0, {}, "stop"],
      [1, { role: "assistant", content: "" }, null], [1, { content: "é\uFFFD" }, null], [1, {}, "length"],
    ]);
    expect(chunks[0]!.prompt_token_ids).toEqual(completion.promptTokens);
    expect(chunks[1]!.choices[0]!.token_ids).toEqual([85, 112, END]);
    expect(chunks.slice(0, 6).every((chunk) => chunk.usage === null)).toBe(true);
    expect(chunks[6]).toMatchObject({ choices: [], usage: { prompt_tokens: 5, completion_tokens: 6, total_tokens: 11 } });
  });
});
