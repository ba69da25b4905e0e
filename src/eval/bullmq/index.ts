// The bullmq executor and its workers, the package entry "budgetrl/bullmq" (`import "budgetrl"` does not load
// BullMQ): the eval's side (executor.ts: evaluate({ executor: "bullmq" }) loads it by itself), the worker's engine
// (`budgetrl worker` as a library call), a run's queue counts and where Redis is. What a job carries, queue and
// job names and the Redis connection are internal.
export { bullmqExecutor, type BullmqExecutorOptions } from "./executor.js";
export { runQueueCounts, type QueueCounts } from "./queue-counts.js";
export { redisLocation } from "./redis.js";
export { startEpisodeWorker, type EpisodeWorker, type EpisodeWorkerOptions, type WorkerEvent } from "./worker.js";
