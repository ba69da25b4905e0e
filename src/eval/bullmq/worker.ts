// A worker process's engine (`budgetrl worker`): takes episode jobs of any run from Redis, plays and stores them
// (play-job.ts). It learns which run queues exist from the set of active queues (names.ts), at once through the
// set's channel and every few seconds by reading it again, and keeps one BullMQ Worker per queue; `concurrency`
// episodes in flight in all, shared out among the queues (at least one each). A job whose worker dies is retried by
// BullMQ's stalled-job check of the other workers once its lock expires (lockDurationMs). Closing waits for the
// episodes in flight (they are stored), then leaves. A lost Redis is waited for as long as it takes, and told as
// redis-watch.ts tells it: the loss once, a line per attempt with its backoff, the recovery once (the connections'
// own errors are not events); so is a wait for a run store that lasts a second (a lock, a lost PostgreSQL server).
import { UnrecoverableError, Worker, type Job } from "bullmq";
import type { Redis } from "ioredis";
import { thrownMessage } from "../../core/errors.js";
import { ACTIVE_QUEUES_KEY } from "./names.js";
import { readEpisodeJob } from "./job.js";
import { createJobContexts, PermanentJobError, type JobContexts } from "./play-job.js";
import { connectRedis, redisConnection } from "./redis.js";
import { createRedisWatch, isConnectionError, type RedisWatch, type RedisWatchEvent } from "./redis-watch.js";

export interface EpisodeWorkerOptions {
  readonly redis: string;
  /** Episodes in flight at once, across all runs. */
  readonly concurrency: number;
  /** Shown as the worker of the jobs it holds (BullMQ's processedBy). */
  readonly name: string;
  /** How long a job stays locked without its worker renewing the lock (ms): a dead worker's jobs are retried after it. */
  readonly lockDurationMs?: number;
  /** How often the stalled-job check runs (ms). */
  readonly stalledIntervalMs?: number;
  /** How often the set of active queues is read again, besides its announcements (ms). */
  readonly rescanMs?: number;
  readonly onEvent?: (event: WorkerEvent) => void;
}

export type WorkerEvent =
  | { readonly kind: "queue-added"; readonly queue: string }
  | { readonly kind: "queue-removed"; readonly queue: string }
  | {
      readonly kind: "episode-done";
      readonly queue: string;
      readonly job: string;
      readonly written: boolean;
      readonly stopReason: string;
    }
  | {
      readonly kind: "episode-failed";
      readonly queue: string;
      readonly job: string;
      readonly reason: string;
      readonly final: boolean;
    }
  | { readonly kind: "error"; readonly message: string }
  | { readonly kind: "waiting"; readonly line: string }
  | RedisWatchEvent;

export interface EpisodeWorker {
  /** Episodes played and stored (new ones), and jobs that failed, since the start. */
  stats(): { readonly done: number; readonly written: number; readonly failed: number };
  /** Stop taking jobs, wait for the ones in flight, disconnect. */
  close(): Promise<void>;
}

type Stats = { done: number; written: number; failed: number };
type Emit = (event: WorkerEvent) => void;

/** What BullMQ calls for each job: play it; a job that can never succeed is unrecoverable (no retries). */
function episodeProcessor(
  contexts: JobContexts,
  stats: Stats,
  emit: Emit,
): (job: Job) => Promise<{ written: boolean; stopReason: string }> {
  return async (job) => {
    try {
      const result = await contexts.play(readEpisodeJob(job.data));
      stats.done++;
      if (result.written) stats.written++;
      emit({
        kind: "episode-done",
        queue: job.queueName,
        job: job.id ?? "",
        written: result.written,
        stopReason: result.stopReason,
      });
      return result;
    } catch (error) {
      if (error instanceof PermanentJobError) throw new UnrecoverableError(error.message);
      throw error;
    }
  };
}

/** The BullMQ worker of one run's queue. */
function queueWorker(
  queue: string,
  processor: (job: Job) => Promise<unknown>,
  options: EpisodeWorkerOptions,
  stats: Stats,
  emit: Emit,
  watch: RedisWatch,
): Worker {
  const worker = new Worker(queue, processor, {
    // Reconnects forever, as often as the worker's own client, silently (the watch tells of a loss).
    connection: { ...redisConnection(options.redis), retryStrategy: watch.quietStrategy },
    name: options.name,
    concurrency: 1,
    lockDuration: options.lockDurationMs ?? 30_000,
    stalledInterval: options.stalledIntervalMs ?? 30_000,
    maxStalledCount: 2,
  });
  worker.on("error", (error) =>
    isConnectionError(error) ? watch.noteError(error) : emit({ kind: "error", message: `${queue}: ${error.message}` }),
  );
  worker.on("failed", (job, error) => {
    stats.failed++;
    const final =
      job === undefined || error instanceof UnrecoverableError || job.attemptsMade >= (job.opts.attempts ?? 1);
    emit({ kind: "episode-failed", queue, job: job?.id ?? "", reason: error.message, final });
  });
  return worker;
}

/** Share `total` episodes in flight among the queues' workers, at least one each. */
function shareConcurrency(workers: readonly Worker[], total: number): void {
  workers.forEach((worker, i) => {
    worker.concurrency = Math.max(1, Math.floor(total / workers.length) + (i < total % workers.length ? 1 : 0));
  });
}

export async function startEpisodeWorker(options: EpisodeWorkerOptions): Promise<EpisodeWorker> {
  const probe = await connectRedis(options.redis);
  const emit: Emit = (event) => options.onEvent?.(event);
  const watch = createRedisWatch(emit);
  // Reconnect after a Redis restart, forever (a worker outlives blips); the client's attempts are the ones told.
  const client: Redis = probe.duplicate({ maxRetriesPerRequest: null, retryStrategy: watch.retryStrategy });
  const subscriber = probe.duplicate({ maxRetriesPerRequest: null, retryStrategy: watch.quietStrategy });
  probe.disconnect();
  client.on("error", watch.noteError);
  client.on("ready", watch.ready);
  subscriber.on("error", watch.noteError);
  const contexts = createJobContexts((line) => emit({ kind: "waiting", line }));
  const workers = new Map<string, Worker>();
  const stats: Stats = { done: 0, written: 0, failed: 0 };
  const processor = episodeProcessor(contexts, stats, emit);
  let closing = false;
  let refreshing: Promise<void> = Promise.resolve();
  /** Workers of queues no longer active, finishing their episodes in flight: close() waits for them too. */
  const retiring = new Set<Promise<void>>();
  /** Serve the queues in the set of active ones, and stop serving the others (after their episodes in flight). */
  const refresh = (): Promise<void> =>
    (refreshing = refreshing.then(async () => {
      const active = await client.smembers(ACTIVE_QUEUES_KEY).catch((error: Error) => {
        emit({ kind: "error", message: `reading the active queues: ${error.message}` });
        return undefined;
      });
      if (closing || active === undefined) return;
      for (const queue of active.filter((name) => !workers.has(name))) {
        workers.set(queue, queueWorker(queue, processor, options, stats, emit, watch));
        emit({ kind: "queue-added", queue });
      }
      for (const [queue, worker] of [...workers].filter(([name]) => !active.includes(name))) {
        workers.delete(queue);
        emit({ kind: "queue-removed", queue });
        const retired: Promise<void> = worker
          .close()
          .catch((error: unknown) => emit({ kind: "error", message: `closing ${queue}: ${thrownMessage(error)}` }))
          .finally(() => retiring.delete(retired));
        retiring.add(retired);
      }
      shareConcurrency([...workers.values()], options.concurrency);
    }));
  subscriber.on("message", () => void refresh());
  await subscriber.subscribe(ACTIVE_QUEUES_KEY);
  await refresh();
  const rescan = setInterval(() => void refresh(), options.rescanMs ?? 2000);
  rescan.unref();
  return {
    stats: () => ({ ...stats }),
    async close() {
      closing = true;
      clearInterval(rescan);
      // A refresh waiting for Redis ends with the connection.
      subscriber.disconnect();
      client.disconnect();
      await refreshing;
      await Promise.all([...[...workers.values()].map((worker) => worker.close()), ...retiring]);
      workers.clear();
      await contexts.close();
    },
  };
}
