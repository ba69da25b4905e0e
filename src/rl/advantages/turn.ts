// Process supervision with turn-level rewards from the env's progress signal:
//   r_t   = progress_t - progress_{t-1}              (progress_0 = the progress at reset)
//   G_t   = sum_{k >= t} gamma^{k-t} r_k             (discounted per turn)
//   A^turn_{i,t} = (G_{i,t} - mean_j G_{j,t}) / (std_j G_{j,t} + eps)   over the episodes j of the group that
//                                                                        have a turn t (normalised per turn index)
//   A_{i,t} = A^traj_i + w * A^turn_{i,t}            (A^traj: GRPO over trajectories, grpo.ts; w = turnWeight)
// Progress means: sokoban, minus the oracle's remaining distance (a good move earns +1); frozenlake, the
// success probability within the turns left (recorded so by the rollout engine, see docs/envs.md); hanoi,
// minus the optimal remaining moves; bfcl, the number of user turns passed.
// Edge cases: a turn index reached by one episode only gets A^turn = 0; equal G at a turn index gives 0.
import { DEFAULT_EPS, defineAdvantageEstimator, optionDefaults, type EstimatorOptions } from "./estimator.js";
import { grpoEpisodeAdvantages } from "./grpo.js";
import { groupOptions, turnTermOptions } from "./options.js";
import { discountedReturns, mean, sampleStd } from "./stats.js";
import type { GroupEpisode, TurnAdvantages } from "./types.js";

/** What the turn-level estimator reads: GRPO's options, the discount gamma (default 0.95) and the weight w (default 1). */
export const turnOptions = { ...groupOptions, ...turnTermOptions };
export type TurnOptions = EstimatorOptions<typeof turnOptions>;
const defaults = optionDefaults(turnOptions);

/** Turn-level rewards: the change of progress made by each turn. */
export function progressRewards(episode: GroupEpisode): number[] {
  let previous = episode.initialProgress;
  return episode.turns.map((turn) => {
    const reward = turn.progress - previous;
    previous = turn.progress;
    return reward;
  });
}

export function turnAdvantages(group: readonly GroupEpisode[], options: TurnOptions = {}): TurnAdvantages {
  const gamma = options.gamma ?? defaults.gamma;
  const weight = options.turnWeight ?? defaults.turnWeight;
  const eps = options.eps ?? DEFAULT_EPS;
  const trajectory = grpoEpisodeAdvantages(group, options);
  const returns = group.map((episode) => discountedReturns(progressRewards(episode), gamma));
  const longest = Math.max(0, ...returns.map((values) => values.length));
  const normalised: number[][] = returns.map((values) => values.map(() => 0));
  for (let t = 0; t < longest; t++) {
    const members = returns
      .map((values, i) => [i, values[t]] as const)
      .filter((pair): pair is readonly [number, number] => pair[1] !== undefined);
    if (members.length < 2) continue;
    const values = members.map(([, value]) => value);
    const m = mean(values);
    const scale = (options.normalizeStd ?? defaults.normalizeStd) ? sampleStd(values) + eps : 1;
    for (const [i, value] of members) normalised[i]![t] = (value - m) / scale;
  }
  return group.map((episode, i) => episode.turns.map((_, t) => trajectory[i]! + weight * normalised[i]![t]!));
}

export const turnEstimator = defineAdvantageEstimator({
  name: "turn",
  summary: "process supervision",
  options: turnOptions,
  estimate: turnAdvantages,
});
