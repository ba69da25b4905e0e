// A worker process's engine (`budgetrl worker`): takes episode jobs of any run from Redis, plays and stores them
// (play-job.ts). It learns which run queues exist from the set of active queues (names.ts), at once through the
// set's channel and every few seconds by reading it again, and keeps one BullMQ Worker per queue; `concurrency`
// episodes in flight in all, shared out among the queues (at least one each). A job whose worker dies is retried by
// BullMQ's stalled-job check of the other workers once its lock expires (lockDurationMs). Closing waits for the
// episodes in flight (they are stored), then leaves.
import { UnrecoverableError, Worker, type Job } from "bullmq";
import type { Redis } from "ioredis";
import { ACTIVE_QUEUES_KEY } from "./names.js";
import { readEpisodeJob } from "./job.js";
import { createJobContexts, PermanentJobError } from "./play-job.js";
import { connectRedis, redisConnection } from "./redis.js";

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
  | { readonly kind: "episode-done"; readonly queue: string; readonly job: string; readonly written: boolean; readonly stopReason: string }
  | { readonly kind: "episode-failed"; readonly queue: string; readonly job: string; readonly reason: string; readonly final: boolean }
  | { readonly kind: "error"; readonly message: string };

export interface EpisodeWorker {
  /** Episodes played and stored (new ones), and jobs that failed, since the start. */
  stats(): { readonly done: number; readonly written: number; readonly failed: number };
  /** Stop taking jobs, wait for the ones in flight, disconnect. */
  close(): Promise<void>;
}

export async function startEpisodeWorker(options: EpisodeWorkerOptions): Promise<EpisodeWorker> {
  const connection = redisConnection(options.redis);
  const client: Redis = await connectRedis(options.redis);
  const subscriber = client.duplicate({ maxRetriesPerRequest: null, retryStrategy: (times: number) => Math.min(times * 200, 2000) });
  subscriber.on("error", () => undefined);
  const contexts = createJobContexts();
  const workers = new Map<string, Worker>();
  const stats = { done: 0, written: 0, failed: 0 };
  const emit = (event: WorkerEvent): void => options.onEvent?.(event);
  let closing = false;

  const processor = async (job: Job): Promise<{ written: boolean; stopReason: string }> => {
    try {
      const result = await contexts.play(readEpisodeJob(job.data));
      stats.done++;
      if (result.written) stats.written++;
      emit({ kind: "episode-done", queue: job.queueName, job: job.id ?? "", written: result.written, stopReason: result.stopReason });
      return result;
    } catch (error) {
      if (error instanceof PermanentJobError) throw new UnrecoverableError(error.message);
      throw error;
    }
  };

  const rebalance = (): void => {
    const queues = [...workers.values()];
    queues.forEach((worker, i) => {
      const share = Math.floor(options.concurrency / queues.length) + (i < options.concurrency % queues.length ? 1 : 0);
      worker.concurrency = Math.max(1, share);
    });
  };

  const add = (queue: string): void => {
    const worker = new Worker(queue, processor, {
      connection,
      name: options.name,
      concurrency: 1,
      lockDuration: options.lockDurationMs ?? 30_000,
      stalledInterval: options.stalledIntervalMs ?? 30_000,
      maxStalledCount: 2,
    });
    worker.on("error", (error) => emit({ kind: "error", message: `${queue}: ${error.message}` }));
    worker.on("failed", (job, error) => {
      stats.failed++;
      const final = job === undefined || error instanceof UnrecoverableError || job.attemptsMade >= (job.opts.attempts ?? 1);
      emit({ kind: "episode-failed", queue, job: job?.id ?? "", reason: error.message, final });
    });
    workers.set(queue, worker);
    emit({ kind: "queue-added", queue });
  };

  let refreshing: Promise<void> = Promise.resolve();
  const refresh = (): Promise<void> =>
    (refreshing = refreshing.then(async () => {
      if (closing) return;
      let active: string[];
      try {
        active = await client.smembers(ACTIVE_QUEUES_KEY);
      } catch (error) {
        emit({ kind: "error", message: `reading the active queues: ${(error as Error).message}` });
        return;
      }
      if (closing) return;
      for (const queue of active) if (!workers.has(queue)) add(queue);
      for (const [queue, worker] of workers) {
        if (active.includes(queue)) continue;
        workers.delete(queue);
        emit({ kind: "queue-removed", queue });
        void worker.close();
      }
      rebalance();
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
      await refreshing;
      await Promise.all([...workers.values()].map((worker) => worker.close()));
      workers.clear();
      await contexts.close();
      subscriber.disconnect();
      await client.quit().catch(() => undefined);
    },
  };
}
