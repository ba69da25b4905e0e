// The bullmq executor and its workers (package entry "budgetrl/bullmq"; `import "budgetrl"` does not load BullMQ):
// the eval's side (executor.ts), the worker's engine (worker.ts, play-job.ts), what a job carries (job.ts), queue
// and job names (names.ts), a run's queue counts (queue-counts.ts), reaching Redis (redis.ts).
export * from "./executor.js";
export * from "./job.js";
export * from "./names.js";
export * from "./play-job.js";
export * from "./queue-counts.js";
export * from "./redis.js";
export * from "./worker.js";
