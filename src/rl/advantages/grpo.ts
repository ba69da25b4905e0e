// GRPO over whole trajectories ("GRPO-Full" in the paper; Shao et al. 2024, arXiv:2402.03300):
//   A_i = (R_i - mean_j R_j) / (std_j R_j + eps)          for every turn (and token) of episode i
// with R the trajectory reward (env return or 1/0 success), std the sample standard deviation of the group,
// eps = 1e-6. `normalizeStd: false` gives A_i = R_i - mean (Dr. GRPO's choice). Edge cases: a singleton group
// has std 0 and A = 0; a group whose rewards are all equal gives A = 0 everywhere (no gradient).
import { DEFAULT_EPS, defineAdvantageEstimator, optionDefaults, type EstimatorOptions } from "./estimator.js";
import { groupOptions } from "./options.js";
import { mean, sampleStd } from "./stats.js";
import { trajectoryReward, type GroupEpisode, type TurnAdvantages } from "./types.js";

/** What GRPO reads: the trajectory reward and whether to divide by the group's std. */
export const grpoOptions = groupOptions;
export type GrpoOptions = EstimatorOptions<typeof grpoOptions>;
const defaults = optionDefaults(grpoOptions);

/** One advantage per episode. */
export function grpoEpisodeAdvantages(group: readonly GroupEpisode[], options: GrpoOptions = {}): number[] {
  const rewards = group.map((episode) => trajectoryReward(episode, options.reward ?? defaults.reward));
  const m = mean(rewards);
  const scale = (options.normalizeStd ?? defaults.normalizeStd) ? sampleStd(rewards) + (options.eps ?? DEFAULT_EPS) : 1;
  return rewards.map((reward) => (group.length < 2 ? 0 : (reward - m) / scale));
}

export function grpoAdvantages(group: readonly GroupEpisode[], options: GrpoOptions = {}): TurnAdvantages {
  const perEpisode = grpoEpisodeAdvantages(group, options);
  return group.map((episode, i) => episode.turns.map(() => perEpisode[i]!));
}

export const grpoEstimator = defineAdvantageEstimator({
  name: "grpo",
  summary: "GRPO-Full",
  options: grpoOptions,
  estimate: grpoAdvantages,
});
