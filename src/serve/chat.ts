// Answering a chat request as the in-process tiny policy answers the same conversation:
//
//   prompt    the tiny policy's context rule (segments, refused for a checkpoint whose policy.json records another; answer room from the
//             request's max_tokens, default the checkpoint's) replayed over the conversation
//             (tiny/conversation.ts), with the sampled tokens of replies whose message lost some (reply-memo.ts).
//             Older messages are dropped as the policy drops them; a last message that does not fit alone is
//             refused (400, "maximum context length"), or cut to its newest bytes as the policy does with
//             cutLongMessages.
//   seeds     choice 0 is sampled with the request's seed, choice j > 0 with deriveSeed(seed, "serve-choice", j)
//             (engine.ts choiceSeed): a client that sends the tiny policy's turn seed (the openai policy's
//             seedScheme=tiny) gets the in-process policy's answer. No seed: a fresh one per request.
//   sampling  engine.ts: the whole reply in one model call, or token by token for a stream (chat-stream.ts) or
//             a constraint (tool_choice "required" or named, tool-choice.ts): the same tokens for the same seed.
//   the reply its text up to its stop (stop.ts), read as tool calls when the tools say so (tool-choice.ts); the
//             reply's tokens are remembered when its message will not give them back (reply-memo.ts).
import type { Message, ToolCall } from "../core/message.js";
import type { TinyModel } from "../nn/model.js";
import { decodeTokens } from "../nn/tokenizer.js";
import { contextRule, type PreviousTurn } from "../policies/tiny/context.js";
import { conversationTurn } from "../policies/tiny/conversation.js";
import { renderMessage } from "../policies/tiny/render.js";
import type { ToolCallFormat } from "../policies/tool-call-text.js";
import { choiceSeed, type GenerationRequest, type SampledChoice, type SamplingEngine } from "./engine.js";
import { badRequest } from "./errors.js";
import type { ReplyMemo } from "./reply-memo.js";
import type { ChatRequest } from "./request.js";
import type { ChatAnswer, ChatChoice } from "./response.js";
import { replyCalls, toolConstraints, toolPlan, type ToolPlan } from "./tool-choice.js";

export interface ChatSettings {
  /** max_tokens when a request does not say (the checkpoint's maxNewTokens). */
  readonly defaultMaxTokens: number;
  readonly cutLongMessages: boolean;
  readonly toolCallParser: ToolCallFormat;
}

export interface ChatContext {
  readonly engine: SamplingEngine;
  readonly model: Pick<TinyModel, "config">;
  readonly settings: ChatSettings;
  readonly memo: ReplyMemo;
}

export interface ChatPrompt {
  readonly prompt: number[];
  readonly previous?: PreviousTurn;
  readonly maxTokens: number;
}

/** The answer length of a request, checked against the context. */
function answerLength(maxTokens: number | undefined, settings: ChatSettings, contextLength: number): number {
  const length = maxTokens ?? settings.defaultMaxTokens;
  if (length > contextLength - 3)
    throw badRequest(
      "max_tokens",
      `at most ${contextLength - 3} for this model (its window is ${contextLength} tokens), got ${length}`,
    );
  return length;
}

function refuseLongMessage(
  messages: readonly Message[],
  budget: number,
  contextLength: number,
  maxTokens: number,
): void {
  const last = renderMessage(messages[messages.length - 1]!).length;
  if (last + 1 <= budget) return;
  throw badRequest(
    "messages",
    `This model's maximum context length is ${contextLength} tokens, with ${contextLength - budget} kept for the answer (max_tokens ${maxTokens}); the last message alone takes ${last} tokens and at most ${budget - 1} fit. Older messages are dropped to fit, as the tiny policy drops them, but a message is never cut (budgetrl serve --cut-long-messages keeps its newest bytes instead).`,
    "context_length_exceeded",
  );
}

/** The prompt of a conversation's next reply, as the tiny policy renders it (also /tokenize's). */
export function chatPrompt(
  context: Pick<ChatContext, "model" | "settings" | "memo">,
  messages: readonly Message[],
  maxTokens: number | undefined,
): ChatPrompt {
  const contextLength = context.model.config.contextLength;
  const length = answerLength(maxTokens, context.settings, contextLength);
  const rule = contextRule(contextLength, length);
  if (!context.settings.cutLongMessages) refuseLongMessage(messages, rule.budget, contextLength, length);
  const { prompt, previous } = conversationTurn(rule, messages, context.memo.replyTokens);
  return { prompt, ...(previous === undefined ? {} : { previous }), maxTokens: length };
}

/** A request ready to sample: its prompt, its tool plan, and what the engine is asked. */
export interface PreparedChat {
  readonly prompt: readonly number[];
  readonly plan: ToolPlan;
  readonly generation: GenerationRequest;
}

export function prepareChat(context: ChatContext, request: ChatRequest, stream: boolean): PreparedChat {
  const { sampling } = request;
  const { prompt, previous, maxTokens } = chatPrompt(context, request.messages, sampling.maxTokens);
  const plan = toolPlan(request, context.settings.toolCallParser);
  if (plan.shape !== undefined && sampling.stop.minTokens > 0)
    throw badRequest(
      "min_tokens",
      'cannot be combined with tool_choice "required" or a named function (the call\'s JSON decides where the reply ends)',
    );
  const room = Math.min(maxTokens, context.model.config.contextLength - prompt.length);
  const constraints = toolConstraints(plan, sampling.n, room);
  context.engine.checkRoom(sampling.n);
  const generation: GenerationRequest = {
    prompt,
    ...(previous === undefined ? {} : { previous }),
    keepSessions: true,
    seeds: Array.from({ length: sampling.n }, (_, j) => choiceSeed(sampling.seed, j)),
    maxTokens,
    temperature: sampling.temperature,
    topP: sampling.topP,
    topLogprobs: request.logprobs ? request.topLogprobs : 0,
    stop: sampling.stop,
    stepwise: stream || constraints !== undefined,
    ...(constraints === undefined ? {} : { constraints }),
  };
  return { prompt, plan, generation };
}

/** A sampled choice as the client gets it (text, tool calls, finish reason), its tokens remembered when needed. */
export function chatChoice(
  context: Pick<ChatContext, "memo">,
  prepared: PreparedChat,
  sampled: SampledChoice,
  callId: (choice: number, call: number) => string,
): ChatChoice {
  const textTokens = sampled.stop?.textTokens ?? sampled.tokens.length;
  const text = decodeTokens(sampled.tokens.slice(0, textTokens));
  const calls = replyCalls(text, prepared.plan);
  const toolCalls: ToolCall[] = (calls?.calls ?? []).map((call, i) => ({ id: callId(sampled.index, i), ...call }));
  const content = calls === undefined ? text : calls.content;
  const message: Message = {
    role: "assistant",
    content: content ?? "",
    ...(toolCalls.length === 0 ? {} : { toolCalls }),
  };
  context.memo.remember(prepared.prompt, sampled.tokens.slice(0, textTokens), message);
  const callsEnd =
    calls !== undefined &&
    (prepared.plan.mode === "auto" || (prepared.plan.mode === "required" && sampled.finish === "stop"));
  return {
    index: sampled.index,
    tokens: sampled.tokens,
    logprobs: sampled.logprobs,
    alternatives: sampled.alternatives,
    content,
    toolCalls,
    finishReason: callsEnd ? "tool_calls" : sampled.finish,
    stopReason: sampled.stop?.reason ?? null,
  };
}

/** Ids of the calls of a response: call_<response number>_<choice>_<call>. */
export function callIds(responseNumber: number): (choice: number, call: number) => string {
  return (choice, call) => `call_${responseNumber.toString(16).padStart(8, "0")}_${choice}_${call}`;
}

/** A whole (non-streamed) chat answer. */
export async function answerChat(
  context: ChatContext,
  request: ChatRequest,
  responseNumber: number,
): Promise<ChatAnswer> {
  const prepared = prepareChat(context, request, false);
  const sampled = await context.engine.generate(prepared.generation);
  const ids = callIds(responseNumber);
  return {
    promptTokens: prepared.prompt,
    choices: sampled.map((choice) => chatChoice(context, prepared, choice, ids)),
  };
}
