// Advantage estimators: pure functions from a group of episodes to per-turn advantages, by name.
export { defineAdvantageEstimator, type AdvantageEstimator, type EstimatorOptions } from "./estimator.js";
export { gigpoAdvantages, gigpoEstimator, type GigpoOptions } from "./gigpo.js";
export { grpoAdvantages, grpoEpisodeAdvantages, grpoEstimator, type GrpoOptions } from "./grpo.js";
export {
  ADVANTAGE_ESTIMATORS,
  advantageEstimator,
  computeAdvantages,
  parseAdvantageEstimator,
  type AdvantageEstimatorName,
  type AdvantageOptions,
  type AlgoConfig,
} from "./registry.js";
export { discountedReturns, mean, sampleStd } from "./stats.js";
export { progressRewards, turnAdvantages, turnEstimator, type TurnOptions } from "./turn.js";
export {
  TRAJECTORY_REWARDS,
  trajectoryReward,
  type GroupEpisode,
  type TrajectoryReward,
  type TurnAdvantages,
} from "./types.js";
