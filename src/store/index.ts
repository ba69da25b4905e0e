// The SQLite run store: runs, tasks, episodes and turns; resumable writes; JSONL export; store faults as errors.
export * from "./episodes.js";
export * from "./export.js";
export * from "./faults.js";
export * from "./open.js";
export * from "./runs.js";
export * from "./schema.js";
export * from "./train-log.js";
