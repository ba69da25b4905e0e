// The evaluation layer: an evaluation run's config (parsed once) and run options, its task list (distinct by
// content; a held-out set left out, named by the --exclude field) and how it is streamed, the resumable
// `evaluate()` that joins the rollout engine (played in this process or by BullMQ workers: executor.ts; bullmq/ has
// its own index and package entry, "budgetrl/bullmq", loaded only when used), the store and the metrics, and the
// Pass@(K,T) table of a stored run.
export * from "./code-version.js";
export * from "./config.js";
export * from "./evaluate.js";
export * from "./execute-run.js";
export * from "./executor.js";
export * from "./held-out-field.js";
export * from "./run-options.js";
export * from "./table.js";
export * from "./task-stream.js";
export * from "./tasks.js";
