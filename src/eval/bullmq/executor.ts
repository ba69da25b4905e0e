// The bullmq executor: a run's episodes as jobs on its own BullMQ queue (names.ts), played by `budgetrl worker`
// processes anywhere that reaches Redis and the store. The eval process plans the run exactly as the local executor
// does (tasks streamed and stored chunk by chunk, episodes already stored skipped), enqueues one job per episode
// (deterministic ids: a re-attached eval never duplicates a queued job) at most `window` ahead of the workers, shows
// progress from the store as jobs finish (woken by the queue's events), and reads the table from the store at the
// end. Re-attaching (`--resume`) first retries the run's failed jobs. A stop signal removes the run's waiting jobs
// (running ones finish and are stored) and leaves the run to resume. A run that completes without failed jobs
// deletes its queue.
import { Queue, QueueEvents } from "bullmq";
import { planEpisodes, plannedCount } from "../../agent/run-episodes.js";
import { ConfigError } from "../../core/errors.js";
import { completedEpisodeCount, episodeKey, episodeTotals } from "../../store/episodes.js";
import { setRunStatus } from "../../store/runs.js";
import type { Store } from "../../store/store.js";
import { budgetsToRun } from "../config.js";
import { lazyTable, plannedTasks, type ExecutedRun, type ExecuteOptions, type PreparedRun } from "../execute-run.js";
import { storedRunOutcomes } from "../table.js";
import { EPISODE_JOB, shareableClientOptions, type EpisodeJob } from "./job.js";
import { ACTIVE_QUEUES_KEY, episodeJobId, runQueueName, workerStoreAddress } from "./names.js";
import { queueCounts } from "./queue-counts.js";
import { connectRedis, redisConnection } from "./redis.js";

export interface BullmqExecutorOptions {
  readonly redis: string;
  /** The run store as given (--db); workers open it by its absolute path or its URL without the password. */
  readonly db: string;
  readonly policyClient?: Readonly<Record<string, unknown>>;
  /** Jobs queued ahead of the workers at most (bounds Redis memory on huge runs). */
  readonly window?: number;
  /** Attempts of a job that fails for a passing reason (a store briefly unreachable), with exponential backoff. */
  readonly attempts?: number;
  readonly backoffMs?: number;
}

const ENQUEUE_BATCH = 500;
const PROGRESS_EVERY_MS = 200;
/** Longest wait for a queue event before the counts are read again anyway. */
const WAKE_MS = 1000;

/** Resolves at the next finished job, at a stop, or after WAKE_MS. */
function nextWake(events: QueueEvents, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    const names = ["completed", "failed", "drained", "stalled"] as const;
    const done = (): void => {
      clearTimeout(timer);
      for (const name of names) events.off(name, done);
      signal?.removeEventListener("abort", done);
      resolve();
    };
    const timer = setTimeout(done, WAKE_MS);
    for (const name of names) events.on(name, done);
    signal?.addEventListener("abort", done, { once: true });
  });
}

export function bullmqExecutor(settings: BullmqExecutorOptions) {
  return async (prepared: PreparedRun, store: Store | undefined, options: ExecuteOptions): Promise<ExecutedRun> => {
    if (store === undefined) throw new ConfigError("db", "the bullmq executor needs a run store that the workers can open", "give --db a file or a postgres:// URL");
    const { run, config, env } = prepared;
    const budgets = budgetsToRun(config);
    const total = plannedCount({ taskCount: prepared.taskCount, budgets, samples: config.samples });
    const address = workerStoreAddress(settings.db);
    const name = runQueueName(address, run);
    const client = await connectRedis(settings.redis);
    const connection = redisConnection(settings.redis);
    const queue = new Queue(name, { connection });
    const events = new QueueEvents(name, { connection });
    const signal = options.signal;
    try {
      await Promise.all([queue.waitUntilReady(), events.waitUntilReady()]);
      await queue.retryJobs({ state: "failed" });
      await client.sadd(ACTIVE_QUEUES_KEY, name);
      await client.publish(ACTIVE_QUEUES_KEY, name);
      const initial = await completedEpisodeCount(store, run);
      options.onStart?.({ run, total, initial });
      options.onProgress?.(initial, total, initial);
      const { tasks, completed } = plannedTasks(prepared, store, budgets.length * config.samples);
      const plan = planEpisodes(env, { run, seed: config.seed, tasks, budgets, mode: config.budgetMode, scope: config.budgetScope, samples: config.samples, skip: (key) => completed().has(episodeKey(key.taskIndex, key.budgetLabel, key.sample)) });
      const sharedClient = shareableClientOptions(settings.policyClient);
      const jobOf = (taskIndex: number, budget: string, sample: number) => {
        const data: EpisodeJob = { version: 1, db: address, run, taskIndex, budget, sample, turnTimeout: options.runOptions.turnTimeout, busyTimeout: options.runOptions.busyTimeout, ...(sharedClient === undefined ? {} : { policyClient: sharedClient }) };
        return {
          name: EPISODE_JOB,
          data,
          opts: { jobId: episodeJobId(name, taskIndex, budget, sample), attempts: settings.attempts ?? 5, backoff: { type: "exponential", delay: settings.backoffMs ?? 1000 }, removeOnComplete: true, removeOnFail: false },
        };
      };
      const window = settings.window ?? 10_000;
      let planned = false;
      let lastProgress = 0;
      for (;;) {
        if (signal?.aborted === true) {
          await queue.drain(true);
          break;
        }
        const counts = await queueCounts(queue);
        const outstanding = counts.queued + counts.running;
        if (!planned && outstanding < window) {
          const batch: ReturnType<typeof jobOf>[] = [];
          while (batch.length < Math.min(ENQUEUE_BATCH, window - outstanding)) {
            const next = await plan.next();
            if (next.done === true) {
              planned = true;
              break;
            }
            batch.push(jobOf(next.value.taskIndex, next.value.budget.label, next.value.sample));
          }
          if (batch.length > 0) await queue.addBulk(batch);
          continue;
        }
        if (performance.now() - lastProgress >= PROGRESS_EVERY_MS || outstanding === 0) {
          lastProgress = performance.now();
          options.onProgress?.(await completedEpisodeCount(store, run), total, initial);
        }
        if (planned && outstanding === 0) break;
        await nextWake(events, signal);
      }
      await client.srem(ACTIVE_QUEUES_KEY, name);
      await client.publish(ACTIVE_QUEUES_KEY, name);
      const totals = await episodeTotals(store, run);
      const { failed } = await queueCounts(queue);
      const [firstFailed] = failed === 0 ? [] : await queue.getFailed(0, 0);
      const complete = totals.done === total;
      if (complete) await setRunStatus(store, run, "complete");
      if (complete && failed === 0) await queue.obliterate({ force: true });
      const firstError = totals.firstError ?? (firstFailed === undefined ? undefined : `queue job failed: ${firstFailed.failedReason}`);
      const outcomes = await storedRunOutcomes(store, run, config);
      return {
        episodes: [],
        errors: totals.errors + failed,
        ...(firstError === undefined ? {} : { firstError }),
        contextLength: totals.contextLength,
        total,
        done: totals.done,
        complete,
        interrupted: !complete && signal?.aborted === true,
        table: lazyTable(config, outcomes),
      };
    } finally {
      await events.close();
      await queue.close();
      await client.quit().catch(() => undefined);
    }
  };
}
