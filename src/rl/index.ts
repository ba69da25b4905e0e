// RL, the package entry "budgetrl/rl": the train loop and SFT (commands as library calls, with their configs),
// the in-process trainer backend and the backend contract (a Tinker server's backend is "budgetrl/tinker"),
// advantage estimators, budget schedules, the PPO-style loss, and the lower-level SFT and policy-update steps.
// train() imports the Tinker backend, its client and renderers when a run trains on a Tinker server (`backend:
// "tinker"`). It registers the policy kind `tinker:` (tinker/policy-kind.ts; the client loads when such a policy is
// made).
import "../tinker/policy-kind.js";
export {
  ADVANTAGE_ESTIMATORS,
  computeAdvantages,
  gigpoAdvantages,
  grpoAdvantages,
  parseAdvantageEstimator,
  TRAJECTORY_REWARDS,
  turnAdvantages,
  type AdvantageEstimatorName,
  type AdvantageOptions,
  type AlgoConfig,
  type GigpoOptions,
  type GrpoOptions,
  type GroupEpisode,
  type TrajectoryReward,
  type TurnAdvantages,
  type TurnOptions,
} from "./advantages/index.js";
export {
  BACKEND_LOSSES,
  type AccumulateStats,
  type BackendLoss,
  type BackendLossName,
  type CoefficientFunction,
  type LossAccumulateStats,
  type LossTokens,
  type ReferenceScorer,
  type ResponseSpan,
  type StepStats,
  type TrainablePolicy,
  type TrainerBackend,
  type TrainSequence,
} from "./backend.js";
export { DEFAULT_PPO, ppoCoefficients, type PpoOptions, type PpoResult, type PpoTokens } from "./loss/index.js";
export {
  drawBudget,
  parseBudgetSchedule,
  type BudgetChoice,
  type BudgetSchedule,
  type DrawContext,
} from "./schedules/index.js";
export { demonstrationSequences, trainSft, type SftOptions } from "./sft.js";
export { parseSftConfig, SFT_TARGETS, sftConfigSchema, type SftConfig, type SftTargets } from "./sft-config.js";
export {
  demonstratorNoise,
  everyReply,
  optimalReplies,
  sftTargets,
  type DemonstrationRun,
  type TargetTurns,
} from "./sft-targets.js";
export { bayesMoves, hiddenBudgetTargets } from "./hidden-budget-targets.js";
export { runSft, type SftRunOptions, type SftRunResult } from "./sft-run.js";
export { tinyBackend, type TinyBackendOptions } from "./backends/tiny/backend.js";
export { train, type EvalPoint, type StepMetrics, type TrainOptions, type TrainResult } from "./train.js";
export {
  parseTrainConfig,
  readStoredTrainConfig,
  trainConfigSchema,
  TRAINER_BACKENDS,
  type BackendConfig,
  type TrainConfig,
  type TrainConfigInput,
} from "./train-config.js";
export { updatePolicy, type UpdateOptions, type UpdateStats } from "./update.js";
