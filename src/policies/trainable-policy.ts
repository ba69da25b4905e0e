// A policy that RL can train: besides acting, it says in which token sequences it sampled an episode's replies
// (the sequences a trainer backend scores and trains on) and which tokens it would emit for a reply (SFT targets).
// The rollout policy of every trainer backend (rl/backend.ts) is one: the tiny policy's (rl/backends/tiny/) and the
// Tinker policy (tinker/policy.ts), which an evaluation samples with too. Declared here, below both, so that the
// Tinker adapter does not import rl.
import type { Message } from "../core/message.js";
import type { Policy } from "../core/policy.js";
import type { EpisodeMessages, EpisodeSequence } from "./tiny/context.js";

export interface TrainablePolicy extends Policy {
  /** The sequences an episode's replies were sampled in (replies[t]: turn t's reply tokens), each reply's span in them. */
  episodeSequences(episode: EpisodeMessages, replies: readonly (readonly number[])[]): EpisodeSequence[];
  /** The tokens this policy would emit for a reply (SFT targets), end-of-turn included. */
  responseTokens(reply: Message): number[];
}
