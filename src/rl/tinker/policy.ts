// A model behind a Tinker server as the RL loop's policy: each turn's prompt comes from the renderer (for an
// episode, the turn before extends into this one, as under the tiny policy's "segments" history: the server's
// prefix cache then holds the episode), one sampling request per turn, and the reply comes back with its
// tokens and their log-probs (the behaviour log-probs RL needs). Each request's seed is the tiny policy's,
// deriveSeed(context.seed, "tiny-policy", context.turn), so the same run asks the same things again.
import type { Act, PolicyContext } from "../../core/policy.js";
import type { Message } from "../../core/message.js";
import type { PreviousTurn } from "../../policies/tiny/context.js";
import { policySeed } from "../../policies/tiny/policy.js";
import type { TrainablePolicy } from "../backend.js";
import type { Renderer } from "./renderer.js";

export interface SampledReply {
  readonly tokens: readonly number[];
  readonly logprobs: readonly number[];
}

/** Samples one reply to a prompt with the current weights. */
export type SampleReply = (prompt: readonly number[], seed: number, signal?: AbortSignal) => Promise<SampledReply>;

/** What the policy remembers of an episode in flight: its turn before, and the message it returned then. */
interface EpisodeState {
  previous?: PreviousTurn;
  reply?: Message;
}

export function createTinkerPolicy(name: string, renderer: Renderer, sampleReply: SampleReply): TrainablePolicy {
  const episodes = new Map<object, EpisodeState>();

  const prepare = (conversation: readonly Message[], context: PolicyContext): { state: EpisodeState | undefined; prompt: number[] } => {
    if (context.episode === undefined) return { state: undefined, prompt: renderer.prompt(conversation) };
    let state = episodes.get(context.episode);
    if (state === undefined) {
      state = {};
      episodes.set(context.episode, state);
    }
    // The conversation extends the turn before only if it still holds the reply returned then.
    const previous = state.previous !== undefined && conversation[state.previous.messages - 1] === state.reply ? state.previous : undefined;
    return { state, prompt: renderer.prompt(conversation, previous) };
  };

  return {
    name,
    episodeSequences: (episode, replies) => renderer.episodeSequences(episode, replies),
    responseTokens: (reply) => renderer.responseTokens(reply),
    async act(conversation, context): Promise<Act> {
      const { state, prompt } = prepare(conversation, context);
      const sampled = await sampleReply(prompt, policySeed(context), context.signal);
      const message = renderer.decode(sampled.tokens);
      if (state !== undefined) {
        state.previous = { prompt, reply: [...sampled.tokens], messages: conversation.length + 1 };
        state.reply = message;
      }
      return { message, tokens: [...sampled.tokens], logprobs: [...sampled.logprobs] };
    },
    endEpisode(episode) {
      episodes.delete(episode);
    },
  };
}
