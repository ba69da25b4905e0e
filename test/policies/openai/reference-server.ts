// A reference OpenAI-compatible model for the server contract (server-contract.ts): a "byte model" whose tokens
// are UTF-8 bytes and which answers one of four moves, drawn from the request's seed and the choice index, as
// text or, when tools are offered, as a call of the first tool. It honours n, logprobs, return_token_ids,
// return_tokens_as_token_ids and a context of CONTEXT_TOKENS prompt tokens, the way `budgetrl serve` must.
import { createRng, deriveSeed } from "../../../src/core/rng.js";
import type { FakeReply, FakeRequest } from "./fake-server.js";

export const CONTEXT_TOKENS = 8192;
const MOVES = ["Up", "Down", "Left", "Right"] as const;

function bytes(text: string): number[] {
  return [...Buffer.from(text, "utf8")];
}

function promptTokens(body: Record<string, unknown>): number[] {
  const messages = Array.isArray(body["messages"]) ? (body["messages"] as { content?: unknown }[]) : [];
  return bytes(messages.map((message) => (typeof message.content === "string" ? message.content : "")).join("\n"));
}

function choice(body: Record<string, unknown>, index: number): Record<string, unknown> {
  const seed = typeof body["seed"] === "number" ? body["seed"] : 0;
  const move = createRng(deriveSeed(seed, "reference", index)).pick(MOVES);
  const tools = Array.isArray(body["tools"]) ? (body["tools"] as { function: { name: string } }[]) : [];
  const text = tools.length > 0 ? JSON.stringify({ direction: move }) : `<answer>${move}</answer>`;
  const tokens = bytes(text);
  // Only the move's first byte was a choice (1 of 4); every other byte follows from it.
  const first = text.indexOf(move);
  const logprobs = tokens.map((_, position) => (position === first ? -Math.log(MOVES.length) : 0));
  const asIds = body["return_tokens_as_token_ids"] === true;
  return {
    index,
    message:
      tools.length > 0
        ? {
            role: "assistant",
            content: null,
            tool_calls: [
              { id: `call_${index}`, type: "function", function: { name: tools[0]?.function.name, arguments: text } },
            ],
          }
        : { role: "assistant", content: text },
    finish_reason: tools.length > 0 ? "tool_calls" : "stop",
    ...(body["logprobs"] === true
      ? {
          logprobs: {
            content: tokens.map((token, position) => ({
              token: asIds ? `token_id:${token}` : String.fromCharCode(token),
              logprob: logprobs[position],
              bytes: [token],
              top_logprobs: [],
            })),
          },
        }
      : {}),
    ...(body["return_token_ids"] === true ? { token_ids: tokens } : {}),
  };
}

export function referenceModel(request: FakeRequest): FakeReply {
  const prompt = promptTokens(request.body);
  if (prompt.length > CONTEXT_TOKENS) {
    return {
      kind: "json",
      status: 400,
      body: {
        error: {
          message: `This model's maximum context length is ${CONTEXT_TOKENS} tokens. However, your messages resulted in ${prompt.length} tokens.`,
          type: "BadRequestError",
          code: 400,
        },
      },
    };
  }
  const n = typeof request.body["n"] === "number" ? request.body["n"] : 1;
  return {
    kind: "json",
    body: {
      id: `chatcmpl-${request.index}`,
      object: "chat.completion",
      created: 0,
      model: request.body["model"],
      choices: Array.from({ length: n }, (_, index) => choice(request.body, index)),
      ...(request.body["return_token_ids"] === true ? { prompt_token_ids: prompt } : {}),
    },
  };
}
