// Answering a chat request:
//
//   prompt    the server's renderer (renderer.ts: the tiny policy's bytes, or a model's chat template with
//             --renderer hf:DIR) over the conversation, under one of two context rules:
//               vllm (default)  the whole conversation is the prompt; one that leaves no room for max_tokens is
//                               refused with vLLM's 400 ("This model's maximum context length is ..."); max_tokens
//                               unset is the rest of the context (at most --max-tokens when that is given)
//               tiny            the tiny policy's context rule (segments: older messages dropped to keep
//                               max_tokens free, a last message that does not fit alone refused or cut with
//                               --cut-long-messages); max_tokens unset is the checkpoint's answer length. What
//                               `--policy openai:... --policy-opt seedScheme=tiny` needs to equal tiny:CKPT.
//             truncate_prompt_tokens keeps the prompt's last k tokens.
//   seeds     choice 0 is sampled with the request's seed, choice j > 0 with deriveSeed(seed, "serve-choice", j)
//             (engine.ts choiceSeed): a client that sends the tiny policy's turn seed (the openai policy's
//             seedScheme=tiny) gets the in-process policy's answer. No seed: a fresh one per request.
//   sampling  engine.ts: the whole reply in one model call, or token by token for a stream (chat-stream.ts) or
//             constraints (constraints.ts: a structured output, tool_choice "required" or named, allowed tokens,
//             bad words): the same tokens for the same seed.
//   the reply its text up to its stop (stop.ts), read as tool calls when the tools say so (tool-choice.ts), after
//             the last message's text with echo when that message is the assistant's; the renderer remembers
//             what it needs of it (reply-memo.ts).
import type { Message, ToolCall } from "../core/message.js";
import type { TinyModel } from "../nn/model.js";
import { DEFAULT_MAX_NEW_TOKENS, type PreviousTurn } from "../policies/tiny/context.js";
import { replyConstraints } from "./constraints.js";
import { choiceSeed, type GenerationRequest, type SampledChoice, type SamplingEngine } from "./engine.js";
import { badRequest } from "./errors.js";
import type { ChatRenderer, Rendered } from "./renderer.js";
import type { ChatRequest } from "./request.js";
import type { ChatAnswer, ChatChoice } from "./response.js";
import { planShape, replyCalls, toolPlan, type ToolPlan } from "./tool-choice.js";
import { tokensText } from "./vocabulary.js";

export const CONTEXT_RULES = ["vllm", "tiny"] as const;
export type ContextRuleName = (typeof CONTEXT_RULES)[number];

export interface ChatSettings {
  readonly contextRule: ContextRuleName;
  /** max_tokens when a request does not say: tiny, the checkpoint's answer length; vllm, at most this (undefined:
   * the rest of the context). */
  readonly defaultMaxTokens: number | undefined;
}

export interface ChatContext {
  readonly engine: SamplingEngine;
  readonly model: Pick<TinyModel, "config">;
  readonly settings: ChatSettings;
  readonly renderer: ChatRenderer;
}

export interface ChatPrompt {
  readonly prompt: number[];
  readonly previous?: PreviousTurn;
  readonly maxTokens: number;
}

/** What a prompt is rendered from. */
export type PromptFields = Pick<
  ChatRequest,
  "messages" | "tools" | "templateKwargs" | "addGenerationPrompt" | "continueFinalMessage" | "documents"
>;

/** The tiny rule's answer length, checked against the context. */
function tinyAnswerLength(maxTokens: number, contextLength: number): number {
  if (maxTokens > contextLength - 3)
    throw badRequest(
      "max_tokens",
      `at most ${contextLength - 3} for this model (its window is ${contextLength} tokens), got ${maxTokens}`,
    );
  return maxTokens;
}

/** vLLM's answer length for a prompt: max_tokens, or the rest of the context; vLLM's 400 when they do not fit. */
function vllmAnswerLength(
  promptTokens: number,
  asked: number | undefined,
  cap: number | undefined,
  context: number,
): number {
  if (asked === undefined && promptTokens >= context)
    throw badRequest(
      "messages",
      `This model's maximum context length is ${context} tokens. However, you requested ${promptTokens} tokens in the messages, Please reduce the length of the messages.`,
      "context_length_exceeded",
    );
  if (asked !== undefined && promptTokens + asked > context)
    throw badRequest(
      "messages",
      `This model's maximum context length is ${context} tokens. However, you requested ${promptTokens + asked} tokens (${promptTokens} in the messages, ${asked} in the completion). Please reduce the length of the messages or completion.`,
      "context_length_exceeded",
    );
  return asked ?? Math.min(cap ?? Infinity, context - promptTokens);
}

/** The prompt's last `keep` tokens (truncate_prompt_tokens; -1: the context's). */
function truncated(rendered: Rendered, keep: number | undefined, context: number): Rendered {
  const limit = keep === -1 ? context : keep;
  if (limit === undefined || rendered.prompt.length <= limit) return rendered;
  return { prompt: rendered.prompt.slice(rendered.prompt.length - limit) };
}

/** The prompt of a conversation's next reply and its answer length (also /tokenize's). */
export function chatPrompt(
  context: Pick<ChatContext, "model" | "settings" | "renderer">,
  fields: PromptFields,
  maxTokens: number | undefined,
  truncate?: number,
): ChatPrompt {
  const contextLength = context.model.config.contextLength;
  const { settings } = context;
  if (settings.contextRule === "tiny") {
    const length = tinyAnswerLength(maxTokens ?? settings.defaultMaxTokens ?? DEFAULT_MAX_NEW_TOKENS, contextLength);
    const rendered = truncated(context.renderer.render({ ...fields, answerRoom: length }), truncate, contextLength);
    return { ...rendered, maxTokens: length };
  }
  const rendered = truncated(context.renderer.render(fields), truncate, contextLength);
  return {
    ...rendered,
    maxTokens: vllmAnswerLength(rendered.prompt.length, maxTokens, settings.defaultMaxTokens, contextLength),
  };
}

/** A request ready to sample: its prompt, its tool plan, the text echoed before replies, and what the engine is asked. */
export interface PreparedChat {
  readonly prompt: readonly number[];
  readonly plan: ToolPlan;
  readonly echo: string;
  readonly generation: GenerationRequest;
}

export function prepareChat(context: ChatContext, request: ChatRequest, stream: boolean): PreparedChat {
  const { sampling } = request;
  const { prompt, previous, maxTokens } = chatPrompt(
    context,
    request,
    sampling.maxTokens,
    sampling.truncatePromptTokens,
  );
  const plan = toolPlan(request, context.renderer.toolCallFormat);
  const structured = request.structured;
  const shape =
    planShape(plan) ??
    (structured === undefined
      ? undefined
      : { form: structured.form, what: `a value of ${structured.field}`, fields: structured.field });
  const constraints = replyConstraints(shape, sampling, context.renderer.vocabulary);
  context.engine.checkRoom(sampling.n);
  const last = request.messages[request.messages.length - 1]!;
  const generation: GenerationRequest = {
    prompt,
    ...(previous === undefined ? {} : { previous }),
    keepSessions: true,
    seeds: Array.from({ length: sampling.n }, (_, j) => choiceSeed(sampling.seed, j)),
    maxTokens,
    temperature: sampling.temperature,
    topP: sampling.topP,
    topK: sampling.topK,
    minP: sampling.minP,
    penalties: sampling.penalties,
    topLogprobs: request.logprobs ? request.topLogprobs : 0,
    stop: sampling.stop,
    stepwise: stream || constraints !== undefined,
    ...(constraints === undefined ? {} : { constraints }),
  };
  return { prompt, plan, echo: sampling.echo && last.role === "assistant" ? last.content : "", generation };
}

/** Ids of the calls of a response, random, the same for the same choice and call (its stream and its end). */
export function callIds(newId: () => string): (choice: number, call: number) => string {
  const given = new Map<string, string>();
  return (choice, call) => {
    const key = `${choice}:${call}`;
    let id = given.get(key);
    if (id === undefined) given.set(key, (id = `chatcmpl-tool-${newId()}`));
    return id;
  };
}

/** A sampled choice as the client gets it (text, tool calls, finish reason), remembered by the renderer. */
export function chatChoice(
  context: Pick<ChatContext, "renderer">,
  prepared: PreparedChat,
  sampled: SampledChoice,
  callId: (choice: number, call: number) => string,
): ChatChoice {
  const textTokens = sampled.stop?.textTokens ?? sampled.tokens.length;
  const text = tokensText(context.renderer.vocabulary, sampled.tokens.slice(0, textTokens));
  const calls = replyCalls(text, prepared.plan);
  const toolCalls: ToolCall[] = (calls?.calls ?? []).map((call, i) => ({ id: callId(sampled.index, i), ...call }));
  const content = calls === undefined ? text : calls.content;
  const message: Message = {
    role: "assistant",
    content: content ?? "",
    ...(toolCalls.length === 0 ? {} : { toolCalls }),
  };
  context.renderer.remember(prepared.prompt, sampled.tokens.slice(0, textTokens), message);
  const callsEnd =
    calls !== undefined &&
    (prepared.plan.mode === "auto" || (prepared.plan.mode === "required" && sampled.finish === "stop"));
  return {
    index: sampled.index,
    tokens: sampled.tokens,
    logprobs: sampled.logprobs,
    alternatives: sampled.alternatives,
    content: content === null ? null : prepared.echo + content,
    toolCalls,
    finishReason: callsEnd ? "tool_calls" : sampled.finish,
    stopReason: sampled.stop?.reason ?? null,
  };
}

/** A whole (non-streamed) chat answer; `newId` makes the calls' ids. */
export async function answerChat(context: ChatContext, request: ChatRequest, newId: () => string): Promise<ChatAnswer> {
  const prepared = prepareChat(context, request, false);
  const sampled = await context.engine.generate(prepared.generation);
  const ids = callIds(newId);
  return {
    promptTokens: prepared.prompt,
    choices: sampled.map((choice) => chatChoice(context, prepared, choice, ids)),
  };
}
