// Metrics over stored episodes: Pass@k, Pass@(K,T) with bootstrap intervals and curve areas, and the study's
// analyses (step quality, natural and perturbation recovery, horizon, the budget table, paired differences).
export * from "./auc.js";
export * from "./bootstrap.js";
export * from "./budget-axis.js";
export * from "./budget-table.js";
export * from "./difference-of-differences.js";
export * from "./episode-rows.js";
export * from "./horizon.js";
export * from "./horizon-bins.js";
export * from "./invalid-replies.js";
export * from "./natural-recovery.js";
export * from "./outcomes.js";
export * from "./paired-difference.js";
export * from "./pass-at-k.js";
export * from "./pass-at-kt.js";
export * from "./per-task-pass.js";
export * from "./relative-gain.js";
export * from "./perturbation-recovery.js";
export * from "./step-quality.js";
export * from "./task-mean.js";
