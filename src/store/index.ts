// The SQLite run store: runs, tasks, episodes and turns (with their token data); resumable writes; JSONL export;
// store faults as errors; the analyses' read-only queries.
export * from "./analysis-rows.js";
export * from "./episodes.js";
export * from "./export.js";
export * from "./faults.js";
export * from "./open.js";
export * from "./runs.js";
export * from "./schema.js";
export * from "./train-log.js";
export * from "./turn-tokens.js";
