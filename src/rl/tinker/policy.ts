// A model behind a Tinker server as the RL loop's policy: each turn's prompt comes from the renderer with the
// env's tools (for an episode, the turn before extends into this one while the tools stay the same, as under
// the tiny policy's "segments" history: the server's prefix cache then holds the episode), one sampling request
// per turn, and the reply comes back with its tokens and their log-probs (the behaviour log-probs RL needs). The
// renderer decodes the reply, tool calls included when tools are offered. The policy remembers the prompt each
// reply message was sampled after (a WeakMap on the message, nothing stored), and hands it to the renderer's
// episodeSequences: the prompt of a turn rendered with tools cannot be rebuilt from the episode's messages.
// Each request's seed is the tiny policy's, deriveSeed(context.seed, "tiny-policy", context.turn), so the same
// run asks the same things again.
import type { Act, PolicyContext } from "../../core/policy.js";
import type { Message, ToolSpec } from "../../core/message.js";
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

/** What the policy remembers of an episode in flight: its turn before, the message it returned then, and the tools offered then. */
interface EpisodeState {
  previous?: PreviousTurn;
  reply?: Message;
  tools?: readonly ToolSpec[];
}

export function createTinkerPolicy(name: string, renderer: Renderer, sampleReply: SampleReply): TrainablePolicy {
  const episodes = new Map<object, EpisodeState>();
  const prompts = new WeakMap<Message, readonly number[]>();

  const prepare = (conversation: readonly Message[], context: PolicyContext): { state: EpisodeState | undefined; prompt: number[] } => {
    if (context.episode === undefined) return { state: undefined, prompt: renderer.prompt(conversation, undefined, context.tools) };
    let state = episodes.get(context.episode);
    if (state === undefined) {
      state = {};
      episodes.set(context.episode, state);
    }
    // The conversation extends the turn before only if it still holds the reply returned then, under the same tools.
    const previous = state.previous !== undefined && conversation[state.previous.messages - 1] === state.reply && state.tools === context.tools ? state.previous : undefined;
    return { state, prompt: renderer.prompt(conversation, previous, context.tools) };
  };

  return {
    name,
    episodeSequences: (episode, replies) => renderer.episodeSequences(episode, replies, (turn) => prompts.get(episode.turns[turn]!.action)),
    responseTokens: (reply) => renderer.responseTokens(reply),
    async act(conversation, context): Promise<Act> {
      const { state, prompt } = prepare(conversation, context);
      const sampled = await sampleReply(prompt, policySeed(context), context.signal);
      const message = renderer.decode(sampled.tokens, context.tools);
      if (state !== undefined) {
        state.previous = { prompt, reply: [...sampled.tokens], messages: conversation.length + 1 };
        state.reply = message;
        state.tools = context.tools;
      }
      prompts.set(message, prompt);
      return { message, tokens: [...sampled.tokens], logprobs: [...sampled.logprobs] };
    },
    endEpisode(episode) {
      episodes.delete(episode);
    },
  };
}
