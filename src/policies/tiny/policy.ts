// The in-process transformer as a `Policy` for the rollout engine. The prompt of each turn follows the context
// rule (context.ts); the answer is sampled up to end-of-turn (or maxNewTokens) and returned with its tokens and
// their log-probs under the model (temperature 1), which RL needs.
//
// Episodes: the policy keeps, per episode (keyed by `context.episode`), a KV-cache session and the turn before,
// so each turn prefills only its new tokens; `endEpisode` frees them. Without an episode handle (a caller other
// than the rollout engine) every turn renders its prompt afresh, as a new segment (the newest messages that fit).
//
// Batching: the rollout engine runs many episodes concurrently; act() calls made while the model is busy,
// or in the same tick, are sampled together in one batched call (batcher.ts, up to maxBatch). Each call's randomness is
// its own seed, deriveSeed(context.seed, "tiny-policy", context.turn), and the model never mixes rows, so
// an answer does not depend on which batch it landed in or how the rollouts were scheduled.
import type { Act, Policy, PolicyContext } from "../../core/policy.js";
import type { Message } from "../../core/message.js";
import { ConfigError } from "../../core/errors.js";
import { deriveSeed } from "../../core/rng.js";
import type { KvSession, TinyModel } from "../../nn/model.js";
import { decodeTokens, END } from "../../nn/tokenizer.js";
import { createSampleBatcher, type SampleSettings } from "./batcher.js";
import { textReplyTokens } from "./conversation.js";
import {
  contextRule,
  DEFAULT_MAX_NEW_TOKENS,
  episodeSequences,
  turnPrompt,
  type ContextRule,
  type EpisodeMessages,
  type EpisodeSequence,
  type PreviousTurn,
} from "./context.js";

export interface TinyPolicyOptions {
  readonly model: TinyModel;
  readonly name?: string;
  /** Longest answer in tokens (bytes); default DEFAULT_MAX_NEW_TOKENS (16). */
  readonly maxNewTokens?: number;
  /** Default 1 (the distribution RL trains); 0 is greedy. */
  readonly temperature?: number;
  readonly topP?: number;
  /** Most prompts sampled in one call; default 64. */
  readonly maxBatch?: number;
}

export interface TinyPolicy extends Policy {
  readonly rule: ContextRule;
  /** The sequences an episode's replies were sampled in (RL and SFT train on them); replies[t] = turn t's reply tokens. */
  episodeSequences(episode: EpisodeMessages, replies: readonly (readonly number[])[]): EpisodeSequence[];
  endEpisode(episode: object): void;
}

/** What the policy remembers of an episode in flight. */
interface EpisodeState {
  readonly session: KvSession;
  previous?: PreviousTurn;
  /** The message act() returned last: the conversation extends `previous` when it holds this at previous.messages - 1. */
  reply?: Message;
}

/** The turn before as the segment continues: with the tokens the policy sampled when its reply was played, or, when
 * an intervention played another message in its place (the expert's, a forced error), with that message's tokens,
 * so the model reads the history that happened (as `budgetrl serve` replays a conversation). */
function continuedTurn(state: EpisodeState, conversation: readonly Message[]): PreviousTurn | undefined {
  const previous = state.previous;
  if (previous === undefined) return undefined;
  const played = conversation[previous.messages - 1];
  if (played === state.reply) return previous;
  return played?.role === "assistant" ? { ...previous, reply: textReplyTokens(played) } : undefined;
}

export function policySeed(context: Pick<PolicyContext, "seed" | "turn">): number {
  return deriveSeed(context.seed, "tiny-policy", context.turn);
}

/** Most sequences per batched model call when none is given. */
export const DEFAULT_MAX_BATCH = 64;

export function createTinyPolicy(options: TinyPolicyOptions): TinyPolicy {
  const { model } = options;
  const maxNewTokens = options.maxNewTokens ?? DEFAULT_MAX_NEW_TOKENS;
  const maxBatch = options.maxBatch ?? DEFAULT_MAX_BATCH;
  const T = model.config.contextLength;
  if (!(Number.isInteger(maxNewTokens) && maxNewTokens >= 1 && maxNewTokens <= T - 3))
    throw new ConfigError("policy.maxNewTokens", `must be an integer in [1, ${T - 3}], got ${maxNewTokens}`);
  if (!(Number.isInteger(maxBatch) && maxBatch >= 1))
    throw new ConfigError("policy.maxBatch", `must be a positive integer, got ${maxBatch}`);
  const rule = contextRule(T, maxNewTokens);
  const settings: SampleSettings = { maxNewTokens, temperature: options.temperature ?? 1, topP: options.topP ?? 1 };
  const batcher = createSampleBatcher(model, maxBatch);
  const episodes = new Map<object, EpisodeState>();

  /** The episode's state when the policy keeps one, and the prompt of this turn. */
  const prepare = (
    conversation: readonly Message[],
    context: PolicyContext,
  ): { state: EpisodeState | undefined; prompt: number[] } => {
    if (context.episode === undefined) return { state: undefined, prompt: turnPrompt(rule, conversation) };
    let state = episodes.get(context.episode);
    if (state === undefined) {
      state = { session: model.openSession() };
      episodes.set(context.episode, state);
    }
    return { state, prompt: turnPrompt(rule, conversation, continuedTurn(state, conversation)) };
  };

  return {
    name: options.name ?? "tiny",
    rule,
    episodeSequences: (episode, replies) => episodeSequences(rule, episode, replies),
    act(conversation, context): Promise<Act> {
      const { state, prompt } = prepare(conversation, context);
      const messages = conversation.length + 1;
      return batcher
        .sample([
          { prompt, seed: policySeed(context), settings, ...(state === undefined ? {} : { session: state.session }) },
        ])
        .then((results) => {
          const generated = results[0]!;
          const text = generated.tokens.filter((t) => t !== END);
          const message: Message = { role: "assistant", content: decodeTokens(text) };
          if (state !== undefined) {
            state.previous = { prompt, reply: generated.tokens, messages };
            state.reply = message;
          }
          return { message, tokens: generated.tokens, logprobs: generated.logprobs };
        });
    },
    endEpisode(episode) {
      episodes.get(episode)?.session.close();
      episodes.delete(episode);
    },
  };
}
