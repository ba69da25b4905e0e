// What advantage estimators read and write. A group is the n rollouts of one task under one budget; an
// estimator returns one advantage per turn of every episode, and the trainer puts a turn's advantage on every
// policy token of that turn.
import type { Episode, Turn } from "../../core/episode.js";

export type GroupEpisode = Pick<Episode, "return" | "success" | "initialProgress"> & {
  readonly turns: readonly Pick<Turn, "reward" | "progress" | "stateKey">[];
};

/** Per-episode, per-turn advantages, aligned with `group[i].turns[t]`. */
export type TurnAdvantages = number[][];

/** False for a group whose advantages are all 0 (equal rewards): it would train nothing. */
export function hasGradient(advantages: TurnAdvantages): boolean {
  return advantages.some((perTurn) => perTurn.some((value) => value !== 0));
}

export const TRAJECTORY_REWARDS = ["return", "success"] as const;
/** What a trajectory scores: the env's summed reward, or 1/0 success. */
export type TrajectoryReward = (typeof TRAJECTORY_REWARDS)[number];

export function trajectoryReward(episode: GroupEpisode, reward: TrajectoryReward): number {
  return reward === "success" ? (episode.success ? 1 : 0) : episode.return;
}
