// Sampling replies to a prompt with the model, for every endpoint (chat.ts builds chat prompts, completions.ts
// text completions):
//
//   seeds     one per choice; the caller derives them (choiceSeed: choice 0 the request's seed, choice j > 0
//             deriveSeed(seed, "serve-choice", j)), so that every choice is its own reproducible stream.
//   batching  through the batcher (tiny/batcher.ts): rows of concurrent requests with the same settings share one
//             model.sample call; a row's tokens do not depend on its batch-mates.
//   two ways  a whole reply in one model call (the default: fastest, and what the in-process policy does), or
//             token by token (`stepwise`: a stream, a constraint), each token one call that resumes the one
//             before in the row's KV-cache session (nn/sampling.ts): the same tokens and log-probs, bit for bit,
//             as the whole reply with the same seed. Between two tokens the caller hears of the new one
//             (onToken: a stream sends it) and a constraint masks the next (json-constraint.ts, token-masks.ts).
//   sampling  temperature, then min-p, top-k and top-p (nn/sampler.ts); logit biases and repetition, presence and
//             frequency penalties before them (nn/penalties.ts), read from the prompt and the reply so far.
//   sessions  choice 0 of a chat samples in the KV-cache session that holds the conversation's turn before, when
//             the pool kept it (session-pool.ts), so that a turn prefills only its new tokens, as in the
//             in-process episode; after the reply its session goes back to the pool for the next turn. Sessions
//             save work only: the answer is the same either way (to float rounding; bit for bit on the
//             development machine). Text completions sample in temporary caches.
//   stops     stop.ts: stop tokens and strings end a reply in the model call (and between stepwise tokens),
//             min_tokens masks stop tokens; max_tokens and the context end it with "length".
//   log-probs "raw" (default): log p(token) under the model at temperature 1, what the in-process policy
//             returns and vLLM reports by default; "processed": under the distribution sampled from (temperature,
//             top-p and masks applied; 0 for greedy). Alternatives (top_logprobs) likewise.
//   overload  when more than maxQueue sequences would wait for the model: 429 with Retry-After.
import { deriveSeed } from "../core/rng.js";
import type { Generated, RngState } from "../nn/generate.js";
import type { KvSession } from "../nn/kv-cache.js";
import type { TinyModel } from "../nn/model.js";
import {
  createSampleBatcher,
  type SampleBatcher,
  type SampleRow,
  type SampleSettings,
} from "../policies/tiny/batcher.js";
import type { PreviousTurn } from "../policies/tiny/context.js";
import { HttpError } from "./errors.js";
import { penalises, type Penalties } from "../nn/penalties.js";
import type { TokenConstraint } from "./token-masks.js";
import { createSessionPool, type SessionPool, type SessionPoolStats } from "./session-pool.js";
import { stopAt, type StopHit, type StopRule } from "./stop.js";

export const LOGPROBS_MODES = ["raw", "processed"] as const;
export type LogprobsMode = (typeof LOGPROBS_MODES)[number];

export interface EngineSettings {
  /** Most sequences waiting for the model before requests get 429. */
  readonly maxQueue: number;
  readonly logprobsMode: LogprobsMode;
  /** Most sequences per model.sample call. */
  readonly maxBatch: number;
  /** Idle KV-cache sessions kept for the conversations' next turns (session-pool.ts); 0: none. */
  readonly sessions: number;
}

export interface GenerationRequest {
  readonly prompt: readonly number[];
  /** The conversation's turn before: choice 0 samples in its session when the pool kept it. */
  readonly previous?: PreviousTurn;
  /** Sample in the pool's sessions and give them back for the conversation's next turn (chat); else temporary caches. */
  readonly keepSessions: boolean;
  /** One per choice. */
  readonly seeds: readonly number[];
  readonly maxTokens: number;
  readonly temperature: number;
  readonly topP: number;
  /** 0: off (default). */
  readonly topK?: number;
  /** 0: off (default). */
  readonly minP?: number;
  /** Default none. */
  readonly penalties?: Penalties;
  /** Alternatives per token (0: none). */
  readonly topLogprobs: number;
  readonly stop: StopRule;
  /** Token by token (a stream, a constraint) instead of one model call per reply. */
  readonly stepwise: boolean;
  /** Per choice, its constraint (stepwise only). */
  readonly constraints?: readonly TokenConstraint[];
  /** Stops sampling between two tokens when it says so (a stream whose client left). */
  readonly cancelled?: () => boolean;
  /** Told when each model call of the request starts (metrics.ts: its first ends the time in the queue). */
  readonly onModelCall?: () => void;
}

export interface TokenAlternative {
  readonly token: number;
  readonly logprob: number;
}

export interface SampledToken {
  readonly token: number;
  readonly logprob: number;
  readonly alternatives: readonly TokenAlternative[] | undefined;
}

export interface SampledChoice {
  readonly index: number;
  /** Sampled tokens, stop tokens and strings included. */
  readonly tokens: readonly number[];
  readonly logprobs: readonly number[];
  /** Per token, its alternatives (when asked). */
  readonly alternatives: readonly (readonly TokenAlternative[])[] | undefined;
  readonly finish: "stop" | "length";
  /** What stopped it (finish "stop"): how many tokens make its text, the stop string or token. */
  readonly stop: StopHit | undefined;
}

/** Told of every token as it is sampled, and of the choice when it ends with it. */
export type TokenListener = (choice: number, token: SampledToken, ended: SampledChoice | undefined) => void;

export interface SamplingEngine {
  /** 429 (HttpError) when n more sequences would pass the queue's limit. */
  checkRoom(n: number): void;
  generate(request: GenerationRequest, onToken?: TokenListener): Promise<SampledChoice[]>;
  /** Sequences waiting for the model. */
  waiting(): number;
  /** Model calls made so far and the sequences they sampled; the session pool's counts. */
  stats(): { readonly calls: number; readonly rows: number; readonly sessions: SessionPoolStats };
}

/** The seed choice j of a request is sampled with. */
export function choiceSeed(seed: number, choice: number): number {
  return choice === 0 ? seed : deriveSeed(seed, "serve-choice", choice);
}

/** What one row of a reply has sampled so far. */
interface Progress {
  readonly tokens: number[];
  readonly logprobs: number[];
  readonly alternatives: TokenAlternative[][];
  rngState: RngState | undefined;
  ended: SampledChoice | undefined;
}

/** What the engine's steps share: the model, its batcher and session pool, and the settings. */
interface EngineState {
  readonly model: Pick<TinyModel, "sample" | "config" | "openSession">;
  readonly settings: EngineSettings;
  readonly batcher: SampleBatcher;
  readonly pool: SessionPool;
  /** Log-probs under the distribution sampled from (logprobsMode "processed"), else under the model. */
  readonly processed: boolean;
}

/** Token i of a model call's output, its log-prob and alternatives as the engine reports them. */
function tokenOf(state: EngineState, g: Generated, i: number): SampledToken {
  return {
    token: g.tokens[i]!,
    logprob: state.processed ? g.samplingLogprobs[i]! : g.logprobs[i]!,
    alternatives: g.alternatives?.[i]?.map((alt) => ({
      token: alt.token,
      logprob: state.processed ? alt.samplingLogprob : alt.logprob,
    })),
  };
}

function choiceOf(
  index: number,
  progress: Omit<Progress, "ended" | "rngState">,
  request: GenerationRequest,
  stopped: boolean,
): SampledChoice {
  const hit = stopped
    ? (stopAt(progress.tokens, request.stop) ?? { textTokens: progress.tokens.length, reason: null })
    : undefined;
  return {
    index,
    tokens: progress.tokens,
    logprobs: progress.logprobs,
    alternatives: request.topLogprobs > 0 ? progress.alternatives : undefined,
    finish: stopped ? "stop" : "length",
    stop: hit,
  };
}

/** Sessions for the rows: choice 0 the conversation's own (if kept); all from the pool, or temporary when asked. */
function takeSessions(state: EngineState, request: GenerationRequest): (KvSession | undefined)[] {
  return request.seeds.map((_, j) => {
    if (request.keepSessions)
      return (
        state.pool.take(j === 0 ? request.previous : undefined) ??
        (request.stepwise ? state.model.openSession() : undefined)
      );
    return request.stepwise ? state.model.openSession() : undefined;
  });
}

function giveSessions(
  state: EngineState,
  request: GenerationRequest,
  held: readonly (KvSession | undefined)[],
  failed: boolean,
): void {
  for (const session of held) {
    if (session === undefined) continue;
    if (failed || !request.keepSessions) session.close();
    else state.pool.give(session);
  }
}

function baseSettings(request: GenerationRequest): SampleSettings {
  return {
    maxNewTokens: request.maxTokens,
    temperature: request.temperature,
    topP: request.topP,
    stopTokens: request.stop.tokens,
    ...(request.stop.strings.length === 0
      ? {}
      : { stopSequences: request.stop.strings.map((string) => string.tokens) }),
    ...(request.stop.minTokens === 0 ? {} : { minNewTokens: request.stop.minTokens }),
    ...(request.topLogprobs === 0 ? {} : { topLogprobs: request.topLogprobs }),
    ...((request.topK ?? 0) === 0 ? {} : { topK: request.topK! }),
    ...((request.minP ?? 0) === 0 ? {} : { minP: request.minP! }),
    ...(penalises(request.penalties) ? { penalties: request.penalties } : {}),
  };
}

/** Every choice's whole reply in one model call. */
async function sampleWhole(
  state: EngineState,
  request: GenerationRequest,
  held: readonly (KvSession | undefined)[],
): Promise<SampledChoice[]> {
  const settings = baseSettings(request);
  const rows: SampleRow[] = request.seeds.map((seed, j) => ({
    prompt: request.prompt,
    seed,
    settings,
    ...(held[j] === undefined ? {} : { session: held[j] }),
    ...(request.onModelCall === undefined ? {} : { onStart: request.onModelCall }),
  }));
  const generated = await state.batcher.sample(rows);
  return generated.map((g, index) => {
    const tokens = g.tokens.map((_, i) => tokenOf(state, g, i));
    return choiceOf(
      index,
      {
        tokens: [...g.tokens],
        logprobs: tokens.map((t) => t.logprob),
        alternatives: tokens.map((t) => [...(t.alternatives ?? [])]),
      },
      request,
      g.finish === "stop",
    );
  });
}

/** The end of a row after its newest token: a stop, max_tokens, the context; undefined while it goes on. */
function endOf(
  state: EngineState,
  index: number,
  progress: Progress,
  request: GenerationRequest,
  modelStopped: boolean,
): SampledChoice | undefined {
  if (modelStopped || stopAt(progress.tokens, request.stop) !== undefined)
    return choiceOf(index, progress, request, true);
  if (
    progress.tokens.length >= request.maxTokens ||
    request.prompt.length + progress.tokens.length >= state.model.config.contextLength
  )
    return choiceOf(index, progress, request, false);
  return undefined;
}

/** The one-token model call of live row j, resuming its session, random stream and constraint. */
function nextTokenRow(
  state: EngineState,
  request: GenerationRequest,
  settings: SampleSettings,
  held: readonly (KvSession | undefined)[],
  row: Progress,
  j: number,
): SampleRow {
  const { contextLength, vocabSize } = state.model.config;
  const budget = Math.min(request.maxTokens, contextLength - request.prompt.length);
  const mask = request.constraints?.[j]?.mask(budget - row.tokens.length, vocabSize);
  return {
    prompt: [...request.prompt, ...row.tokens],
    seed: request.seeds[j]!,
    session: held[j]!,
    settings: {
      ...settings,
      maxNewTokens: 1,
      minNewTokens: Math.max(0, request.stop.minTokens - row.tokens.length),
    },
    ...(row.rngState === undefined ? {} : { resume: row.rngState }),
    ...(mask === undefined ? {} : { mask }),
    ...(request.onModelCall === undefined ? {} : { onStart: request.onModelCall }),
    ...(settings.penalties === undefined ? {} : { replyStart: request.prompt.length }),
  };
}

/** Adds row j's new token to what it has sampled, and tells the listener. */
function recordToken(
  state: EngineState,
  request: GenerationRequest,
  row: Progress,
  j: number,
  g: Generated,
  onToken: TokenListener | undefined,
): void {
  const sampled = tokenOf(state, g, 0);
  row.tokens.push(sampled.token);
  row.logprobs.push(sampled.logprob);
  row.alternatives.push([...(sampled.alternatives ?? [])]);
  row.rngState = g.rngState;
  request.constraints?.[j]?.advance(sampled.token);
  row.ended = endOf(state, j, row, request, g.finish === "stop");
  onToken?.(j, sampled, row.ended);
}

/** Every choice token by token, each token one model call. */
async function sampleStepwise(
  state: EngineState,
  request: GenerationRequest,
  held: readonly (KvSession | undefined)[],
  onToken: TokenListener | undefined,
): Promise<SampledChoice[]> {
  const rows: Progress[] = request.seeds.map(() => ({
    tokens: [],
    logprobs: [],
    alternatives: [],
    rngState: undefined,
    ended: undefined,
  }));
  // Stop strings are checked here, across the calls.
  const { stopSequences: _, ...settings } = baseSettings(request);
  for (;;) {
    const live = rows.map((_, j) => j).filter((j) => rows[j]!.ended === undefined);
    if (live.length === 0 || request.cancelled?.() === true) break;
    const asked = live.map((j) => nextTokenRow(state, request, settings, held, rows[j]!, j));
    const generated = await state.batcher.sample(asked);
    live.forEach((j, r) => recordToken(state, request, rows[j]!, j, generated[r]!, onToken));
  }
  return rows.map((row, j) => row.ended ?? choiceOf(j, row, request, false));
}

/** 429 (HttpError) when n more sequences would pass the queue's limit. */
function checkRoom(state: EngineState, n: number): void {
  if (state.batcher.waiting() + n > state.settings.maxQueue) {
    throw new HttpError(
      429,
      `the server is busy: ${state.batcher.waiting()} sequences are waiting for the model (budgetrl serve --max-queue ${state.settings.maxQueue}); retry later`,
      { headers: { "retry-after": "1" } },
    );
  }
}

async function generate(
  state: EngineState,
  request: GenerationRequest,
  onToken: TokenListener | undefined,
): Promise<SampledChoice[]> {
  checkRoom(state, request.seeds.length);
  const held = takeSessions(state, request);
  let failed = true;
  try {
    const choices = request.stepwise
      ? await sampleStepwise(state, request, held, onToken)
      : await sampleWhole(state, request, held);
    failed = false;
    return choices;
  } finally {
    giveSessions(state, request, held, failed);
  }
}

export function createSamplingEngine(
  model: Pick<TinyModel, "sample" | "config" | "openSession">,
  settings: EngineSettings,
): SamplingEngine {
  const state: EngineState = {
    model,
    settings,
    batcher: createSampleBatcher(model, settings.maxBatch),
    pool: createSessionPool(() => model.openSession(), settings.sessions),
    processed: settings.logprobsMode === "processed",
  };
  return {
    checkRoom: (n) => checkRoom(state, n),
    generate: (request, onToken) => generate(state, request, onToken),
    waiting: () => state.batcher.waiting(),
    stats: () => ({ ...state.batcher.stats(), sessions: state.pool.stats() }),
  };
}
