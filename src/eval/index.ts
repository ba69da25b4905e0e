// The evaluation layer: an evaluation run's config (parsed once), its task list, the resumable `evaluate()`
// that joins the rollout engine, the store and the metrics, and the Pass@(K,T) table of a stored run.
export * from "./code-version.js";
export * from "./config.js";
export * from "./evaluate.js";
export * from "./table.js";
export * from "./tasks.js";
