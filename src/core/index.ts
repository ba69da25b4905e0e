// Core types shared by every layer, as the package exports them (src/index.ts re-exports all of this): messages,
// budgets (the one parser and how a spec becomes turns), the env and policy contracts, episodes, the gym facade,
// option builders for envs and policies, seeded RNG, errors. Left out, for budgetrl's own layers only: the turn
// clock (withTurnBudget and the rollout engine count turns with it), analysis rows' helpers, the "continue with"
// commands, hashing, config field builders, output paths, stop points.
export type { EpisodeOutcome, FirstErrorCounts, HorizonCounts, InvalidCounts, StepCounts } from "./analysis-rows.js";
export {
  BUDGET_MODES,
  BUDGET_SCOPES,
  budgetSize,
  checkBudgetsFit,
  largestBudget,
  parseBudgetList,
  parseBudgetMode,
  parseBudgetSpec,
  resolveBudget,
  resolveTurns,
  taskBudgetBasis,
  type Budget,
  type BudgetBasis,
  type BudgetKind,
  type BudgetMode,
  type BudgetScope,
  type BudgetSpec,
} from "./budget.js";
export type { ActionSpace } from "./action-space.js";
export {
  isRemoteEnv,
  requireOracle,
  STOP_REASONS,
  type AnyEnv,
  type Env,
  type EnvSpec,
  type PlayableEnv,
  type RemoteEnv,
  type ResetResult,
  type StepInfo,
  type StepResult,
  type StopReason,
} from "./env.js";
export type { Episode, ForcedAction, Turn } from "./episode.js";
export type { Oracle, OracleAnswer } from "./oracle.js";
export { BudgetrlError, ConfigError, DataError, StoppedError } from "./errors.js";
export { gym, withTurnBudget, type GymEnv, type GymStep } from "./gym.js";
export type { Json, JsonObject } from "./json.js";
export type { TaskSource } from "./task-source.js";
export {
  assistantMessage,
  systemMessage,
  userMessage,
  type Message,
  type Role,
  type ToolCall,
  type ToolSpec,
} from "./message.js";
export { booleanOption, choiceOption, integerOption, numberOption, parseOptions, type OptionHelp } from "./options.js";
export type { FirstSuccess, OutcomeCounts } from "./outcome.js";
export {
  ContextLengthError,
  policyFromFunction,
  PolicyReplyError,
  type Act,
  type AgentFunction,
  type EpisodeGroup,
  type OracleHorizon,
  type Policy,
  type PolicyContext,
  type PrivilegedView,
  type SamplingRecord,
} from "./policy.js";
export { policySpecLabel, readPolicySpec, type PolicySpec, type PolicySpecKind } from "./policy-spec.js";
export { createRng, deriveSeed, rngFromState, type Rng } from "./rng.js";
