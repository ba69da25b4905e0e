// Answering one chat request with the model, as the in-process tiny policy answers the same conversation:
//
//   prompt    the tiny policy's context rule (history from the checkpoint's policy.json, answer room from the
//             request's max_tokens, default the checkpoint's) replayed over the conversation
//             (tiny/conversation.ts), with the sampled tokens of replies whose text lost some (reply-memo.ts).
//             Older messages are dropped as the policy drops them; a last message that does not fit alone is
//             refused (400, "maximum context length"), or cut to its newest bytes as the policy does with
//             cutLongMessages.
//   seeds     choice 0 is sampled with the request's seed, choice j > 0 with deriveSeed(seed, "serve-choice", j):
//             a client that sends the tiny policy's turn seed (the openai policy's seedScheme=tiny) gets the
//             in-process policy's answer, and every choice is its own reproducible stream.
//   sampling  through the batcher (tiny/batcher.ts): rows of concurrent requests with the same settings share
//             one model.sample call; a row's tokens do not depend on its batch-mates. Choice 0 samples in the
//             KV-cache session that holds the conversation's turn before, when the pool kept it
//             (session-pool.ts), so a turn prefills only its new tokens, as in the in-process episode; other
//             choices and new conversations prefill their whole prompt. Sessions save work only: the answer is
//             the same either way (to float rounding; bit for bit on the development machine).
//   log-probs "raw" (default): log p(token) under the model at temperature 1, what the in-process policy
//             returns and vLLM reports by default; "processed": under the distribution sampled from (temperature
//             and top-p applied; 0 for greedy).
//   overload  when more than maxQueue sequences would wait for the model: 429 with Retry-After.
import { deriveSeed } from "../core/rng.js";
import type { TinyModel } from "../nn/model.js";
import { decodeTokens, END } from "../nn/tokenizer.js";
import type { Generated } from "../nn/generate.js";
import { createSampleBatcher, type SampleBatcher, type SampleRow } from "../policies/tiny/batcher.js";
import { contextRule, type History, type PreviousTurn } from "../policies/tiny/context.js";
import { conversationTurn } from "../policies/tiny/conversation.js";
import { renderMessage } from "../policies/tiny/render.js";
import { badRequest, HttpError } from "./errors.js";
import type { ReplyMemo } from "./reply-memo.js";
import type { ChatRequest } from "./request.js";
import { createSessionPool, type SessionPool, type SessionPoolStats } from "./session-pool.js";

export const LOGPROBS_MODES = ["raw", "processed"] as const;
export type LogprobsMode = (typeof LOGPROBS_MODES)[number];

export interface CompletionSettings {
  readonly history: History;
  /** max_tokens when a request does not say (the checkpoint's maxNewTokens). */
  readonly defaultMaxTokens: number;
  readonly cutLongMessages: boolean;
  /** Most sequences waiting for the model before requests get 429. */
  readonly maxQueue: number;
  readonly logprobsMode: LogprobsMode;
  /** Most sequences per model.sample call. */
  readonly maxBatch: number;
  /** Idle KV-cache sessions kept for the conversations' next turns (session-pool.ts); 0: none. */
  readonly sessions: number;
}

export interface CompletedChoice {
  readonly index: number;
  /** Sampled tokens, the end token included when sampled. */
  readonly tokens: readonly number[];
  readonly logprobs: readonly number[];
  readonly text: string;
  readonly finishReason: "stop" | "length";
}

export interface Completion {
  readonly promptTokens: readonly number[];
  readonly choices: readonly CompletedChoice[];
}

export interface CompletionEngine {
  complete(request: ChatRequest): Promise<Completion>;
  /** Sequences waiting for the model. */
  waiting(): number;
  /** Model calls made so far and the sequences they sampled; the session pool's counts. */
  stats(): { readonly calls: number; readonly rows: number; readonly sessions: SessionPoolStats };
}

/** The seed choice j of a request is sampled with. */
export function choiceSeed(seed: number, choice: number): number {
  return choice === 0 ? seed : deriveSeed(seed, "serve-choice", choice);
}

/** The answer length of a request, checked against the context. */
function answerLength(request: ChatRequest, settings: CompletionSettings, contextLength: number): number {
  const maxTokens = request.maxTokens ?? settings.defaultMaxTokens;
  if (maxTokens > contextLength - 3) throw badRequest("max_tokens", `at most ${contextLength - 3} for this model (its window is ${contextLength} tokens), got ${maxTokens}`);
  return maxTokens;
}

function refuseLongMessage(request: ChatRequest, budget: number, contextLength: number, maxTokens: number): void {
  const last = renderMessage(request.messages[request.messages.length - 1]!).length;
  if (last + 1 <= budget) return;
  throw badRequest(
    "messages",
    `This model's maximum context length is ${contextLength} tokens, with ${contextLength - budget} kept for the answer (max_tokens ${maxTokens}); the last message alone takes ${last} tokens and at most ${budget - 1} fit. Older messages are dropped to fit, as the tiny policy drops them, but a message is never cut (budgetrl serve --cut-long-messages keeps its newest bytes instead).`,
    "context_length_exceeded",
  );
}

/** Samples the rows in sessions from the pool (choice 0 in the conversation's own, if kept), then gives them back. */
async function sampleInSessions(batcher: SampleBatcher, sessions: SessionPool, rows: readonly SampleRow[], previous: PreviousTurn | undefined): Promise<Generated[]> {
  const held = rows.map((_, j) => sessions.take(j === 0 ? previous : undefined));
  try {
    const generated = await batcher.sample(rows.map((row, j) => (held[j] === undefined ? row : { ...row, session: held[j] })));
    for (const session of held) if (session !== undefined) sessions.give(session);
    return generated;
  } catch (error) {
    for (const session of held) session?.close();
    throw error;
  }
}

export function createCompletionEngine(model: Pick<TinyModel, "sample" | "config" | "openSession">, settings: CompletionSettings, memo: ReplyMemo): CompletionEngine {
  const contextLength = model.config.contextLength;
  const batcher: SampleBatcher = createSampleBatcher(model, settings.maxBatch);
  // Under "window" no turn extends the one before: no session would be found again.
  const sessions = createSessionPool(() => model.openSession(), settings.history === "segments" ? settings.sessions : 0);
  return {
    async complete(request) {
      const maxTokens = answerLength(request, settings, contextLength);
      const rule = contextRule(contextLength, maxTokens, settings.history);
      if (!settings.cutLongMessages) refuseLongMessage(request, rule.budget, contextLength, maxTokens);
      const { prompt, previous } = conversationTurn(rule, request.messages, memo.replyTokens);
      if (batcher.waiting() + request.n > settings.maxQueue) {
        throw new HttpError(429, `the server is busy: ${batcher.waiting()} sequences are waiting for the model (budgetrl serve --max-queue ${settings.maxQueue}); retry later`, { headers: { "retry-after": "1" } });
      }
      const sampleSettings = { maxNewTokens: maxTokens, temperature: request.temperature, topP: request.topP };
      const rows = Array.from({ length: request.n }, (_, j) => ({ prompt, seed: choiceSeed(request.seed, j), settings: sampleSettings }));
      const generated = await sampleInSessions(batcher, sessions, rows, previous);
      const choices = generated.map((g, index): CompletedChoice => {
        memo.remember(prompt, g.tokens);
        return {
          index,
          tokens: g.tokens,
          logprobs: settings.logprobsMode === "raw" ? g.logprobs : g.samplingLogprobs,
          text: decodeTokens(g.tokens.filter((token) => token !== END)),
          finishReason: g.finish === "stop" ? "stop" : "length",
        };
      });
      return { promptTokens: prompt, choices };
    },
    waiting: () => batcher.waiting(),
    stats: () => ({ ...batcher.stats(), sessions: sessions.stats() }),
  };
}
