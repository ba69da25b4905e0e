// A chat answer as the JSON an OpenAI-compatible client reads (pure functions): the `chat.completion` body, and
// the pieces its stream's chunks share (chat-stream.ts).
//
//   choices[i]            { index, message: { role: "assistant", content, tool_calls? }, logprobs,
//                         finish_reason: stop | length | tool_calls, stop_reason (vLLM's: the stop string or
//                         token id that ended it, else null) }
//   logprobs (asked)      { content: [{ token, logprob, bytes, top_logprobs: [{ token, logprob, bytes }] }] },
//                         one entry per sampled token (the end token and stop strings included), token = its text
//                         as the vocabulary shows it ("<|end|>" for the end token; a lone non-ASCII byte shows as
//                         U+FFFD, its bytes in `bytes`), or "token_id:N" with return_tokens_as_token_ids. A log-prob of -Infinity (a
//                         token the processed distribution cannot give) is written -9999.0, as vLLM writes it.
//   token_ids             per choice, with return_token_ids (aligned with logprobs.content)
//   prompt_token_ids      top level, with return_token_ids
//   prompt_logprobs       top level, when asked (prompt-logprobs.ts)
//   usage                 prompt_tokens, completion_tokens (all choices), total_tokens
import type { JsonObject, Json } from "../core/json.js";
import type { ToolCall } from "../core/message.js";
import type { TokenAlternative } from "./engine.js";
import { byteVocabulary, type Vocabulary } from "./vocabulary.js";

const BYTES = byteVocabulary(260);

/** What identifies a response: its id, creation time (seconds) and the model's name. */
export interface ResponseMeta {
  readonly id: string;
  readonly created: number;
  readonly model: string;
}

export interface ChatChoice {
  readonly index: number;
  readonly tokens: readonly number[];
  readonly logprobs: readonly number[];
  readonly alternatives: readonly (readonly TokenAlternative[])[] | undefined;
  /** null: tool calls and no text. */
  readonly content: string | null;
  readonly toolCalls: readonly ToolCall[];
  readonly finishReason: "stop" | "length" | "tool_calls";
  readonly stopReason: string | number | null;
}

export interface ChatAnswer {
  readonly promptTokens: readonly number[];
  readonly choices: readonly ChatChoice[];
  /** vLLM's prompt_logprobs, when asked. */
  readonly promptLogprobs?: Json;
}

export interface TokenFlags {
  readonly logprobs: boolean;
  readonly returnTokenIds: boolean;
  readonly tokensAsIds: boolean;
  /** How tokens are shown (default: the byte tokenizer's). */
  readonly vocabulary?: Vocabulary;
}

/** vLLM writes -inf log-probs as -9999.0 (JSON has no infinities). */
export function finiteLogprob(logprob: number): number {
  return Number.isFinite(logprob) ? logprob : -9999;
}

export function tokenText(token: number, flags: Pick<TokenFlags, "tokensAsIds" | "vocabulary">): string {
  if (flags.tokensAsIds) return `token_id:${token}`;
  return (flags.vocabulary ?? BYTES).display(token);
}

function tokenEntry(token: number, logprob: number, flags: TokenFlags): JsonObject {
  const bytes = (flags.vocabulary ?? BYTES).bytes(token);
  return {
    token: tokenText(token, flags),
    logprob: finiteLogprob(logprob),
    bytes: bytes.length === 0 ? null : [...bytes],
  };
}

/** The log-prob entries of tokens [from, to) of a choice. */
export function logprobEntries(
  choice: Pick<ChatChoice, "tokens" | "logprobs" | "alternatives">,
  flags: TokenFlags,
  from = 0,
  to = choice.tokens.length,
): Json[] {
  const entries: Json[] = [];
  for (let i = from; i < to; i++) {
    const top = (choice.alternatives?.[i] ?? []).map((alt) => tokenEntry(alt.token, alt.logprob, flags));
    entries.push({ ...tokenEntry(choice.tokens[i]!, choice.logprobs[i]!, flags), top_logprobs: top });
  }
  return entries;
}

export function usageOf(promptTokens: number, completionTokens: number): JsonObject {
  return {
    prompt_tokens: promptTokens,
    completion_tokens: completionTokens,
    total_tokens: promptTokens + completionTokens,
  };
}

/** A stream chunk's usage field: the usage so far (continuous_usage_stats), null (include_usage), or none. */
export function streamUsageField(
  asked: { readonly continuousUsage: boolean; readonly includeUsage: boolean },
  promptTokens: number,
  completionTokens: readonly number[],
): JsonObject {
  if (asked.continuousUsage)
    return {
      usage: usageOf(
        promptTokens,
        completionTokens.reduce((a, b) => a + b, 0),
      ),
    };
  return asked.includeUsage ? { usage: null } : {};
}

/** A stream's last chunk with the usage of the whole answer (stream_options.include_usage). */
export function usageChunk(
  meta: ResponseMeta,
  object: string,
  promptTokens: number,
  completionTokens: readonly number[],
): JsonObject {
  const completion = completionTokens.reduce((a, b) => a + b, 0);
  const { id, created, model } = meta;
  return { id, object, created, model, choices: [], usage: usageOf(promptTokens, completion) };
}

export function toolCallsJson(calls: readonly ToolCall[]): Json[] {
  return calls.map((call) => ({
    id: call.id,
    type: "function",
    function: { name: call.name, arguments: call.arguments },
  }));
}

export function chatCompletionBody(answer: ChatAnswer, flags: TokenFlags, meta: ResponseMeta): JsonObject {
  const completionTokens = answer.choices.reduce((sum, choice) => sum + choice.tokens.length, 0);
  return {
    id: meta.id,
    object: "chat.completion",
    created: meta.created,
    model: meta.model,
    choices: answer.choices.map((choice) => ({
      index: choice.index,
      message: {
        role: "assistant",
        content: choice.content,
        ...(choice.toolCalls.length === 0 ? {} : { tool_calls: toolCallsJson(choice.toolCalls) }),
      },
      logprobs: flags.logprobs ? { content: logprobEntries(choice, flags) } : null,
      finish_reason: choice.finishReason,
      stop_reason: choice.stopReason,
      ...(flags.returnTokenIds ? { token_ids: [...choice.tokens] } : {}),
    })),
    usage: usageOf(answer.promptTokens.length, completionTokens),
    ...(flags.returnTokenIds ? { prompt_token_ids: [...answer.promptTokens] } : {}),
    ...(answer.promptLogprobs === undefined ? {} : { prompt_logprobs: answer.promptLogprobs }),
  };
}
