// The bullmq executor: a run's episodes as jobs on its own BullMQ queue (names.ts), played by `budgetrl worker`
// processes anywhere that reaches Redis and the store. The eval process plans the run exactly as the local executor
// does (tasks streamed and stored chunk by chunk, episodes already stored skipped), enqueues one job per episode
// (deterministic ids: a re-attached eval never duplicates a queued job) at most `window` ahead of the workers, shows
// progress from the store as jobs finish (the queue's counts read ten times a second), and reads the table from the store at the
// end. Re-attaching (`--resume`) first retries the run's failed jobs. A stop signal removes the run's waiting jobs
// (running ones finish and are stored) and leaves the run to resume. A run that completes without failed jobs
// deletes its queue.
import { Queue, type JobsOptions } from "bullmq";
import type { Redis } from "ioredis";
import type { EpisodeSpec } from "../../agent/rollout.js";
import { planEpisodes, plannedCount } from "../../agent/run-episodes.js";
import { ConfigError } from "../../core/errors.js";
import { completedEpisodeCount, episodeKey, episodeTotals } from "../../store/episodes.js";
import { setRunStatus } from "../../store/runs.js";
import type { Store } from "../../store/store.js";
import { budgetsToRun } from "../config.js";
import { lazyTable, plannedTasks, type ExecutedRun, type ExecuteOptions, type PreparedRun, type RunExecutor } from "../execute-run.js";
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
/** How often the queue's counts are read while the workers play (a few Redis calls per second, whatever the rate of
 * episodes: listening to every job's events would cost the eval more than the counts do). */
const POLL_MS = 100;
const PROGRESS_EVERY_MS = 200;

/** Resolves after POLL_MS, or at once on a stop. */
function pause(signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => {
      clearTimeout(timer);
      signal?.removeEventListener("abort", done);
      resolve();
    };
    const timer = setTimeout(done, POLL_MS);
    signal?.addEventListener("abort", done, { once: true });
  });
}

/** The run's side of the queue: its queue, and a client for the set of active queues. */
interface Attached {
  readonly queue: Queue;
  readonly client: Redis;
  close(): Promise<void>;
}

/** Open the run's queue, retry its failed jobs (a re-attached eval), and announce it to the workers. */
async function attach(redis: string, name: string): Promise<Attached> {
  const client = await connectRedis(redis);
  const connection = redisConnection(redis);
  const queue = new Queue(name, { connection });
  const close = async (): Promise<void> => {
    await queue.close();
    await client.quit().catch(() => undefined);
  };
  try {
    await queue.waitUntilReady();
    await queue.retryJobs({ state: "failed" });
    await client.sadd(ACTIVE_QUEUES_KEY, name);
    await client.publish(ACTIVE_QUEUES_KEY, name);
  } catch (error) {
    await close();
    throw error;
  }
  return { queue, client, close };
}

type EpisodeJobEntry = { readonly name: string; readonly data: EpisodeJob; readonly opts: JobsOptions };

/** Add up to `room` planned episodes as jobs; true once the plan is exhausted. */
async function enqueue(queue: Queue, plan: AsyncIterator<EpisodeSpec<unknown>>, room: number, jobOf: (spec: EpisodeSpec<unknown>) => EpisodeJobEntry): Promise<boolean> {
  const batch: EpisodeJobEntry[] = [];
  let exhausted = false;
  while (batch.length < Math.min(ENQUEUE_BATCH, room)) {
    const next = await plan.next();
    if (next.done === true) {
      exhausted = true;
      break;
    }
    batch.push(jobOf(next.value));
  }
  // Ids are deterministic: a job already queued (by an eval that was restarted) is not added twice.
  if (batch.length > 0) await queue.addBulk(batch);
  return exhausted;
}

interface Playing {
  readonly prepared: PreparedRun;
  readonly store: Store;
  readonly attached: Attached;
  readonly options: ExecuteOptions;
  readonly total: number;
  readonly initial: number;
  readonly window: number;
  readonly jobOf: (spec: EpisodeSpec<unknown>) => EpisodeJobEntry;
}

/** Keep the queue fed (at most `window` jobs ahead), show progress, until every job finished or the stop signal
 * came (then the run's waiting jobs are removed). */
async function play(playing: Playing): Promise<void> {
  const { prepared, store, attached, options, total, initial, window } = playing;
  const { run, config, env } = prepared;
  const budgets = budgetsToRun(config);
  const { tasks, completed } = plannedTasks(prepared, store, budgets.length * config.samples);
  const plan = planEpisodes(env, { run, seed: config.seed, tasks, budgets, mode: config.budgetMode, scope: config.budgetScope, samples: config.samples, skip: (key) => completed().has(episodeKey(key.taskIndex, key.budgetLabel, key.sample)) });
  let planned = false;
  let lastProgress = 0;
  for (;;) {
    if (options.signal?.aborted === true) {
      await attached.queue.drain(true);
      return;
    }
    const counts = await queueCounts(attached.queue);
    const outstanding = counts.queued + counts.running;
    if (!planned && outstanding < window) {
      planned = await enqueue(attached.queue, plan, window - outstanding, playing.jobOf);
      continue;
    }
    if (performance.now() - lastProgress >= PROGRESS_EVERY_MS || outstanding === 0) {
      lastProgress = performance.now();
      options.onProgress?.(await completedEpisodeCount(store, run), total, initial);
    }
    if (planned && outstanding === 0) return;
    await pause(options.signal);
  }
}

/** The run as the store holds it once the queue is done; a finished run's queue is deleted. */
async function finish(playing: Playing, name: string): Promise<ExecutedRun> {
  const { prepared, store, attached, options, total } = playing;
  await attached.client.srem(ACTIVE_QUEUES_KEY, name);
  await attached.client.publish(ACTIVE_QUEUES_KEY, name);
  const totals = await episodeTotals(store, prepared.run);
  const { failed } = await queueCounts(attached.queue);
  const [firstFailed] = failed === 0 ? [] : await attached.queue.getFailed(0, 0);
  const complete = totals.done === total;
  if (complete) await setRunStatus(store, prepared.run, "complete");
  if (complete && failed === 0) await attached.queue.obliterate({ force: true });
  const firstError = totals.firstError ?? (firstFailed === undefined ? undefined : `queue job failed: ${firstFailed.failedReason}`);
  const outcomes = await storedRunOutcomes(store, prepared.run, prepared.config);
  return {
    episodes: [],
    // Jobs that failed for good are retried when the eval re-attaches, as policy errors are on resume.
    errors: totals.errors + failed,
    ...(firstError === undefined ? {} : { firstError }),
    contextLength: totals.contextLength,
    total,
    done: totals.done,
    complete,
    interrupted: !complete && options.signal?.aborted === true,
    table: lazyTable(prepared.config, outcomes),
  };
}

export function bullmqExecutor(settings: BullmqExecutorOptions): RunExecutor {
  return async (prepared, store, options) => {
    if (store === undefined) throw new ConfigError("db", "the bullmq executor needs a run store that the workers can open", "give --db a file or a postgres:// URL");
    const { run, config } = prepared;
    const total = plannedCount({ taskCount: prepared.taskCount, budgets: budgetsToRun(config), samples: config.samples });
    const address = workerStoreAddress(settings.db);
    const name = runQueueName(address, run);
    const client = shareableClientOptions(settings.policyClient);
    const jobOf = (spec: EpisodeSpec<unknown>): EpisodeJobEntry => ({
      name: EPISODE_JOB,
      data: { version: 1, db: address, run, taskIndex: spec.taskIndex, budget: spec.budget.label, sample: spec.sample, turnTimeout: options.runOptions.turnTimeout, busyTimeout: options.runOptions.busyTimeout, ...(client === undefined ? {} : { policyClient: client }) },
      opts: { jobId: episodeJobId(name, spec.taskIndex, spec.budget.label, spec.sample), attempts: settings.attempts ?? 5, backoff: { type: "exponential", delay: settings.backoffMs ?? 1000 }, removeOnComplete: true, removeOnFail: false },
    });
    const attached = await attach(settings.redis, name);
    try {
      const initial = await completedEpisodeCount(store, run);
      options.onStart?.({ run, total, initial });
      options.onProgress?.(initial, total, initial);
      const playing: Playing = { prepared, store, attached, options, total, initial, window: settings.window ?? 10_000, jobOf };
      await play(playing);
      return await finish(playing, name);
    } finally {
      await attached.close();
    }
  };
}
