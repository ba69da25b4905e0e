// A model behind a Tinker server as the RL loop's policy: each turn's prompt comes from the renderer with the
// env's tools (for an episode, the turn before extends into this one while the tools stay the same, as under
// the tiny policy's segments history: the server's prefix cache then holds the episode), one sampling request
// per turn, and the reply comes back with its tokens and their log-probs (the behaviour log-probs RL needs). The
// renderer decodes the reply, tool calls included when tools are offered. The policy remembers the prompt each
// reply message was sampled after (a WeakMap on the message, nothing stored), and hands it to the renderer's
// episodeSequences: the prompt of a turn rendered with tools cannot be rebuilt from the episode's messages.
// Each request's seed is the tiny policy's, deriveSeed(context.seed, "tiny-policy", context.turn), so the same
// run asks the same things again.
// Group sampling (on unless `groupSampling` is false): the first turns of an RL group (context.group: `size`
// episodes of one task and budget, which see the same first prompt) are one request with num_samples = size and
// the group's seed, deriveSeed(group.seed, "tinker-group"); episode `sample` takes sequence `sample`. Whichever
// episode asks first sends the request, so the result does not depend on the order they ask in. An episode
// whose first prompt differs from its group's is sampled alone.
import { deriveSeed } from "../core/rng.js";
import type { Act, EpisodeGroup, PolicyContext } from "../core/policy.js";
import type { Message, ToolSpec } from "../core/message.js";
import type { PreviousTurn } from "../policies/tiny/context.js";
import { policySeed } from "../policies/tiny/policy.js";
import type { TrainablePolicy } from "../policies/trainable-policy.js";
import type { Renderer } from "../policies/renderers/renderer.js";
import { deleteOldest } from "../core/oldest-key.js";

export interface SampledReply {
  readonly tokens: readonly number[];
  readonly logprobs: readonly number[];
}

/** Samples `count` replies to a prompt with the current weights, in one request with this seed. */
export type SampleReplies = (
  prompt: readonly number[],
  seed: number,
  count: number,
) => Promise<readonly SampledReply[]>;

/** A group's first-turn request in flight, and the samples already handed out. */
interface GroupRequest {
  readonly prompt: readonly number[];
  readonly replies: Promise<readonly SampledReply[]>;
  readonly taken: Set<number>;
}

/** Group requests kept at most (a group whose episodes never all ask is forgotten, oldest first). */
const MAX_OPEN_GROUPS = 4096;

function samePrompt(a: readonly number[], b: readonly number[]): boolean {
  return a.length === b.length && a.every((token, i) => token === b[i]);
}

/** The reply of a group's first turn from the group's one request, or undefined when the episode samples alone. */
function groupReply(
  groups: Map<number, GroupRequest>,
  group: EpisodeGroup,
  sample: number,
  prompt: readonly number[],
  sampleReplies: SampleReplies,
): Promise<SampledReply> | undefined {
  if (group.size < 2 || sample >= group.size) return undefined;
  let request = groups.get(group.seed);
  if (request === undefined) {
    request = {
      prompt,
      replies: sampleReplies(prompt, deriveSeed(group.seed, "tinker-group"), group.size),
      taken: new Set(),
    };
    groups.set(group.seed, request);
    if (groups.size > MAX_OPEN_GROUPS) deleteOldest(groups);
  }
  if (request.taken.has(sample) || !samePrompt(request.prompt, prompt)) return undefined;
  request.taken.add(sample);
  if (request.taken.size === group.size) groups.delete(group.seed);
  return request.replies.then((replies) => {
    const reply = replies[sample];
    if (reply === undefined)
      throw new Error(`the group's sampling request returned ${replies.length} sequences for ${group.size} episodes`);
    return reply;
  });
}

/** What the policy remembers of an episode in flight: its turn before, the message it returned then, and the tools offered then. */
interface EpisodeState {
  previous?: PreviousTurn;
  reply?: Message;
  tools?: readonly ToolSpec[];
}

/** The prompt of a turn, and the state of its episode (none outside an episode): the turn before extends into this
 * one only if the conversation still holds the reply returned then, under the same tools. */
function promptOf(
  renderer: Renderer,
  episodes: Map<object, EpisodeState>,
  conversation: readonly Message[],
  context: PolicyContext,
): { state: EpisodeState | undefined; prompt: number[] } {
  if (context.episode === undefined)
    return { state: undefined, prompt: renderer.prompt(conversation, undefined, context.tools) };
  let state = episodes.get(context.episode);
  if (state === undefined) {
    state = {};
    episodes.set(context.episode, state);
  }
  const previous =
    state.previous !== undefined &&
    conversation[state.previous.messages - 1] === state.reply &&
    state.tools === context.tools
      ? state.previous
      : undefined;
  return { state, prompt: renderer.prompt(conversation, previous, context.tools) };
}

/** Whether an RL group's first turns are sampled in one request when nothing says. */
export const DEFAULT_GROUP_SAMPLING = true;

export function createTinkerPolicy(
  name: string,
  renderer: Renderer,
  sampleReplies: SampleReplies,
  options: { readonly groupSampling?: boolean } = {},
): TrainablePolicy {
  const episodes = new Map<object, EpisodeState>();
  const groups = new Map<number, GroupRequest>();
  const sampleOne = async (prompt: readonly number[], context: PolicyContext): Promise<SampledReply> => {
    const grouped =
      (options.groupSampling ?? DEFAULT_GROUP_SAMPLING) && context.group !== undefined && context.turn === 1
        ? groupReply(groups, context.group, context.sample, prompt, sampleReplies)
        : undefined;
    return grouped ?? (await sampleReplies(prompt, policySeed(context), 1))[0]!;
  };
  const prompts = new WeakMap<Message, readonly number[]>();

  return {
    name,
    episodeSequences: (episode, replies) =>
      renderer.episodeSequences(episode, replies, (turn) => prompts.get(episode.turns[turn]!.action)),
    responseTokens: (reply) => renderer.responseTokens(reply),
    async act(conversation, context): Promise<Act> {
      const { state, prompt } = promptOf(renderer, episodes, conversation, context);
      const sampled = await sampleOne(prompt, context);
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
