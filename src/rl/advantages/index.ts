// Advantage estimators: pure functions from a group of episodes to per-turn advantages, by name.
import { ConfigError } from "../../core/errors.js";
import { gigpoAdvantages, type GigpoOptions } from "./gigpo.js";
import { grpoAdvantages } from "./grpo.js";
import { turnAdvantages, type TurnOptions } from "./turn.js";
import type { GroupEpisode, TurnAdvantages } from "./types.js";

export { gigpoAdvantages, type GigpoOptions } from "./gigpo.js";
export { grpoAdvantages, grpoEpisodeAdvantages, type GrpoOptions } from "./grpo.js";
export { discountedReturns, mean, sampleStd } from "./stats.js";
export { progressRewards, turnAdvantages, type TurnOptions } from "./turn.js";
export { TRAJECTORY_REWARDS, trajectoryReward, type GroupEpisode, type TrajectoryReward, type TurnAdvantages } from "./types.js";

export const ADVANTAGE_ESTIMATORS = ["grpo", "turn", "gigpo"] as const;
export type AdvantageEstimatorName = (typeof ADVANTAGE_ESTIMATORS)[number];
export type AdvantageOptions = TurnOptions & GigpoOptions;

export function parseAdvantageEstimator(name: string, field = "algo"): AdvantageEstimatorName {
  if ((ADVANTAGE_ESTIMATORS as readonly string[]).includes(name)) return name as AdvantageEstimatorName;
  throw new ConfigError(field, `unknown advantage estimator "${name}"`, `use one of ${ADVANTAGE_ESTIMATORS.join(", ")}`);
}

export function computeAdvantages(name: AdvantageEstimatorName, group: readonly GroupEpisode[], options: AdvantageOptions = {}): TurnAdvantages {
  switch (name) {
    case "grpo":
      return grpoAdvantages(group, options);
    case "turn":
      return turnAdvantages(group, options);
    case "gigpo":
      return gigpoAdvantages(group, options);
  }
}
