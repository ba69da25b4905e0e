// The evaluation layer, as the package exports it: the resumable `evaluate()` that joins the rollout engine (played
// in this process or by BullMQ workers; bullmq/ is the "budgetrl/bullmq" entry, loaded only when used), the store
// and the metrics; an evaluation's config (parsed once) and run options; the Pass@(K,T) table of a stored run
// (its store opened with "budgetrl/store"). Left out: the task lists and streams, held-out sets, executors and the
// code version, which the CLI, rl and the workers import from their files.
export {
  encodeEvalConfig,
  evalConfigSchema,
  parseEvalConfig,
  PROTOCOLS,
  type EvalConfig,
  type EvalConfigInput,
  type Protocol,
} from "./config.js";
export { evaluate, type EvaluateOptions, type EvaluationResult } from "./evaluate.js";
export {
  evalRunOptionsSchema,
  EXECUTORS,
  parseEvalRunOptions,
  type EvalRunOptions,
  type ExecutorName,
} from "./run-options.js";
export { storedRunOutcomes, tableFor, type RunOutcomes } from "./table.js";
