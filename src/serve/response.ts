// A completion as the JSON an OpenAI-compatible client reads (pure functions): a `chat.completion` body, or the
// `chat.completion.chunk` events of a stream.
//
//   choices[i]            { index, message: { role: "assistant", content }, logprobs, finish_reason: stop | length }
//   logprobs (asked)      { content: [{ token, logprob, bytes, top_logprobs: [] }] }, one entry per sampled token
//                         (the end token included), token = its text ("<|end|>" for the end token; a lone
//                         non-ASCII byte shows as U+FFFD, its byte in `bytes`), or "token_id:N" with
//                         return_tokens_as_token_ids
//   token_ids             per choice, with return_token_ids (aligned with logprobs.content)
//   prompt_token_ids      top level, with return_token_ids
//   usage                 prompt_tokens, completion_tokens (all choices), total_tokens
//
// A stream sends, per choice, a chunk with the role, one with the whole content (and its log-probs and token ids),
// one with the finish reason; then the usage chunk when stream_options.include_usage asks; then `data: [DONE]`.
// The reply is complete before its first chunk: the model samples a batch of sequences at a time.
import type { JsonObject, Json } from "../core/json.js";
import { SPECIAL_TOKENS, decodeTokens } from "../nn/tokenizer.js";
import type { CompletedChoice, Completion } from "./completions.js";
import type { ChatRequest } from "./request.js";

/** What identifies a response: its id, creation time (seconds) and the model's name. */
export interface ResponseMeta {
  readonly id: string;
  readonly created: number;
  readonly model: string;
}

type Flags = Pick<ChatRequest, "logprobs" | "returnTokenIds" | "tokensAsIds" | "includeUsage">;

function tokenText(token: number): string {
  return token < 256 ? decodeTokens([token]) : (SPECIAL_TOKENS[token] ?? `<|${token}|>`);
}

function logprobsOf(choice: CompletedChoice, flags: Flags): Json {
  if (!flags.logprobs) return null;
  return {
    content: choice.tokens.map((token, i) => ({
      token: flags.tokensAsIds ? `token_id:${token}` : tokenText(token),
      logprob: choice.logprobs[i]!,
      bytes: token < 256 ? [token] : null,
      top_logprobs: [],
    })),
  };
}

function usageOf(completion: Completion): JsonObject {
  const completionTokens = completion.choices.reduce((sum, choice) => sum + choice.tokens.length, 0);
  return { prompt_tokens: completion.promptTokens.length, completion_tokens: completionTokens, total_tokens: completion.promptTokens.length + completionTokens };
}

export function completionBody(completion: Completion, flags: Flags, meta: ResponseMeta): JsonObject {
  return {
    id: meta.id,
    object: "chat.completion",
    created: meta.created,
    model: meta.model,
    choices: completion.choices.map((choice) => ({
      index: choice.index,
      message: { role: "assistant", content: choice.text },
      logprobs: logprobsOf(choice, flags),
      finish_reason: choice.finishReason,
      ...(flags.returnTokenIds ? { token_ids: [...choice.tokens] } : {}),
    })),
    usage: usageOf(completion),
    ...(flags.returnTokenIds ? { prompt_token_ids: [...completion.promptTokens] } : {}),
  };
}

/** The events of a stream, in order (each sent as `data: <JSON>`), without the final `[DONE]`. */
export function streamChunks(completion: Completion, flags: Flags, meta: ResponseMeta): JsonObject[] {
  const usage: JsonObject = flags.includeUsage ? { usage: null } : {};
  const chunk = (choice: JsonObject, extra: JsonObject = {}): JsonObject => ({ id: meta.id, object: "chat.completion.chunk", created: meta.created, model: meta.model, choices: [choice], ...usage, ...extra });
  const chunks: JsonObject[] = [];
  completion.choices.forEach((choice, position) => {
    const first: JsonObject = position === 0 && flags.returnTokenIds ? { prompt_token_ids: [...completion.promptTokens] } : {};
    chunks.push(chunk({ index: choice.index, delta: { role: "assistant", content: "" }, logprobs: null, finish_reason: null }, first));
    chunks.push(chunk({ index: choice.index, delta: { content: choice.text }, logprobs: logprobsOf(choice, flags), finish_reason: null, ...(flags.returnTokenIds ? { token_ids: [...choice.tokens] } : {}) }));
    chunks.push(chunk({ index: choice.index, delta: {}, logprobs: null, finish_reason: choice.finishReason }));
  });
  if (flags.includeUsage) chunks.push({ id: meta.id, object: "chat.completion.chunk", created: meta.created, model: meta.model, choices: [], usage: usageOf(completion) });
  return chunks;
}
