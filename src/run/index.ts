// Evaluation runs: config, task lists, store-backed resumable evaluation, and tables of stored runs.
export * from "./config.js";
export * from "./evaluate.js";
export * from "./table.js";
export * from "./tasks.js";
export * from "./version.js";
