// Metrics over stored episodes: Pass@k, Pass@(K,T) with bootstrap intervals and curve areas.
export * from "./auc.js";
export * from "./bootstrap.js";
export * from "./budget-axis.js";
export * from "./outcomes.js";
export * from "./pass-at-k.js";
export * from "./pass-at-kt.js";
