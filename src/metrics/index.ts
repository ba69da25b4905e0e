// Metrics over episodes, as the package exports them: Pass@k and Pass@(K,T) with bootstrap intervals, curve areas
// and the budget axis; the study's analyses (step quality, natural and perturbation recovery, horizon, invalid
// replies, the budget table, paired and relative differences), each from its rows, and the rows of in-memory
// episodes (`stepCountsOf(result.episodes, result.config.budgets)`, ...). Left out: the binning, ratio and
// resampling helpers the analyses are built from.
export { normalisedArea } from "./auc.js";
export { bootstrapIndices, bootstrapInterval, type Interval } from "./bootstrap.js";
export { budgetAxis, type BudgetPoint } from "./budget-axis.js";
export { budgetTable, type BudgetTable, type BudgetTableEntry, type BudgetTableRow } from "./budget-table.js";
export { differenceOfDifferences, type DifferenceOfDifferences } from "./difference-of-differences.js";
export {
  episodeOutcomesOf,
  firstErrorCountsOf,
  horizonCountsOf,
  invalidCountsOf,
  stepCountsOf,
} from "./episode-rows.js";
export { horizon, type Horizon, type HorizonBin, type HorizonOptions } from "./horizon.js";
export { invalidReplies, type InvalidRate } from "./invalid-replies.js";
export { naturalRecovery, type NaturalRecovery, type RecoveryCells } from "./natural-recovery.js";
export { countOutcomes, firstSuccessesOf } from "./outcomes.js";
export { pairedDifference, type PairedDifference } from "./paired-difference.js";
export { passAtK } from "./pass-at-k.js";
export {
  countsWithinBudgets,
  passAtKT,
  type PassAtKTOptions,
  type PassAtKTTable,
  type PassCell,
} from "./pass-at-kt.js";
export { perTaskPassAtK } from "./per-task-pass.js";
export {
  perturbationRecovery,
  type PerturbationRecovery,
  type RecoveryCell,
  type RecoveryEpisode,
} from "./perturbation-recovery.js";
export { relativeGain } from "./relative-gain.js";
export { stepQuality, type StepQuality } from "./step-quality.js";
export { taskMean, type Estimate, type IntervalOptions } from "./task-mean.js";
