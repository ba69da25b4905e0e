// The bullmq executor: a run's episodes as jobs on its own BullMQ queue (names.ts), played by `budgetrl worker`
// processes anywhere that reaches Redis and the store. The eval process plans the run exactly as the local executor
// does (tasks streamed and stored chunk by chunk, episodes already stored skipped), enqueues one job per episode
// (deterministic ids: a re-attached eval never duplicates a queued job) at most `window` ahead of the workers, shows
// progress from the store as jobs finish (the queue's counts read ten times a second), and reads the table from the store at the
// end. Re-attaching (`--resume`) first retries the run's failed jobs. A stop signal removes the run's waiting jobs
// (running ones finish and are stored) and leaves the run to resume. A run that completes without failed jobs
// deletes its queue. A Redis lost mid-run is waited for, up to `reconnectMs` (redis.ts: boundedReconnect), each
// Redis step cut by the loss sent again (they are idempotent: job ids are fixed); back, the eval announces its queue
// again and, once its plan is through, queues again the jobs a Redis restarted empty lost. Past `reconnectMs` the
// eval stops with a ConnectionLostError (the workers, which outlive Redis restarts, keep trying): what the workers
// stored stays, and `--resume` re-attaches once Redis is back, queueing whatever is missing.
import { Queue, type JobsOptions } from "bullmq";
import type { Redis } from "ioredis";
import type { EpisodeSpec } from "../../agent/rollout.js";
import { planEpisodes, plannedCount } from "../../agent/run-episodes.js";
import { ConfigError, type ConnectionLostError } from "../../core/errors.js";
import { completedEpisodeCount, episodeKey, episodeTotals } from "../../store/episodes.js";
import { setRunStatus } from "../../store/runs.js";
import type { Store } from "../../store/store.js";
import type { GivenClientOptions } from "../../policies/openai/options.js";
import { budgetsToRun } from "../config.js";
import {
  lazyTable,
  plannedTasks,
  type ExecutedRun,
  type ExecuteOptions,
  type PreparedRun,
  type RunExecutor,
} from "../execute-run.js";
import { storedRunOutcomes } from "../table.js";
import { EPISODE_JOB, type EpisodeJob } from "./job.js";
import { ACTIVE_QUEUES_KEY, episodeJobId, runQueueName, workerStoreAddress } from "./names.js";
import { queueCounts } from "./queue-counts.js";
import { boundedReconnect, connectRedis, isRedisConnectionLoss, redisConnection } from "./redis.js";
import { pause } from "../../core/pause.js";
import type { WaitListener } from "../../core/wait-notice.js";

export interface BullmqExecutorOptions {
  readonly redis: string;
  /** The run store as given (--db); workers open it by its absolute path or its URL without the password. */
  readonly db: string;
  /** The openai client options given to the eval: carried by every job. */
  readonly client?: GivenClientOptions;
  /** Jobs queued ahead of the workers at most (bounds Redis memory on huge runs). */
  readonly window?: number;
  /** Attempts of a job that fails for a passing reason (a store briefly unreachable), with exponential backoff. */
  readonly attempts?: number;
  readonly backoffMs?: number;
  /** How long a Redis lost mid-run is waited for before the eval stops (ms; the eval's --reconnect-timeout). */
  readonly reconnectMs: number;
  /** Told when that wait lasted a second. */
  readonly onWait?: WaitListener;
}

const ENQUEUE_BATCH = 500;
/** How often the queue's counts are read while the workers play (a few Redis calls per second, whatever the rate of
 * episodes: listening to every job's events would cost the eval more than the counts do). */
const POLL_MS = 100;
const PROGRESS_EVERY_MS = 200;

/** The run's side of the queue: its queue, and a client for the set of active queues. */
interface Attached {
  readonly queue: Queue;
  readonly client: Redis;
  /** The error to stop with once Redis was lost for too long. */
  lost(): ConnectionLostError | undefined;
  /** How many times the queue's connection was lost (and, if the run goes on, found again). */
  losses(): number;
  /** Add the run's queue to the set of active queues, and tell the workers. */
  announce(): Promise<void>;
  /** Run an idempotent Redis step, again (after a pause) while its connection is being restored; once Redis was
   * lost for too long, fail with that. */
  step<T>(work: () => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

/** Open the run's queue, retry its failed jobs (a re-attached eval), and announce it to the workers. */
async function attach(
  redis: string,
  name: string,
  reconnectMs: number,
  signal: AbortSignal | undefined,
  onWait: WaitListener | undefined,
): Promise<Attached> {
  const bounded = boundedReconnect(redis, reconnectMs, signal, onWait);
  const probe = await connectRedis(redis);
  const client = probe.duplicate({ maxRetriesPerRequest: null, retryStrategy: bounded.strategy() });
  probe.disconnect();
  client.on("error", (error: Error) => bounded.noteError(error));
  client.on("ready", () => bounded.back());
  const queue = new Queue(name, { connection: { ...redisConnection(redis), retryStrategy: bounded.strategy() } });
  // Without a listener, every failed reconnection would print a stack trace.
  queue.on("error", (error) => bounded.noteError(error));
  let losses = 0;
  queue.on("ioredis:close", () => void losses++);
  const announce = async (): Promise<void> => {
    await client.sadd(ACTIVE_QUEUES_KEY, name);
    await client.publish(ACTIVE_QUEUES_KEY, name);
  };
  const step = async <T>(work: () => Promise<T>): Promise<T> => {
    for (;;) {
      try {
        return await work();
      } catch (error) {
        const lost = bounded.lost();
        if (lost !== undefined) throw lost;
        if (!isRedisConnectionLoss(error)) throw error;
        // Commands sent now wait for the connection (or fail once it gives up).
        await pause(POLL_MS);
      }
    }
  };
  const close = async (): Promise<void> => {
    if (bounded.lost() === undefined) {
      await queue.close();
      await client.quit().catch(() => undefined);
      return;
    }
    await queue.disconnect().catch(() => undefined);
    client.disconnect();
  };
  try {
    await queue.waitUntilReady();
    await queue.retryJobs({ state: "failed" });
    await announce();
  } catch (error) {
    await close();
    throw error;
  }
  return { queue, client, lost: bounded.lost, losses: () => losses, announce, step, close };
}

type EpisodeJobEntry = { readonly name: string; readonly data: EpisodeJob; readonly opts: JobsOptions };

/** Add up to `room` planned episodes as jobs; true once the plan is exhausted. */
async function enqueue(
  attached: Attached,
  plan: AsyncIterator<EpisodeSpec<unknown>>,
  room: number,
  jobOf: (spec: EpisodeSpec<unknown>) => EpisodeJobEntry,
): Promise<boolean> {
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
  // Ids are deterministic: a job already queued (by an eval that was restarted, or before a connection was lost) is
  // not added twice.
  if (batch.length > 0) await attached.step(() => attached.queue.addBulk(batch));
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

/** The episodes to queue: those not stored yet (policy errors included, as on resume); `again`: the run's tasks are
 * all stored by now and read back, and episodes that ended in a policy error are not queued a second time. */
function episodePlan(playing: Playing, again: boolean): AsyncIterator<EpisodeSpec<unknown>> {
  const { run, config, env, policy, taskCount } = playing.prepared;
  const prepared: PreparedRun = again
    ? { run, config, env, policy, taskCount, storedTasks: taskCount, persistTasks: false }
    : playing.prepared;
  const budgets = budgetsToRun(config);
  const { tasks, completed } = plannedTasks(prepared, playing.store, budgets.length * config.samples, {
    withErrors: again,
  });
  return planEpisodes(env, {
    run,
    seed: config.seed,
    tasks,
    budgets,
    mode: config.budgetMode,
    scope: config.budgetScope,
    samples: config.samples,
    skip: (key) => completed().has(episodeKey(key.taskIndex, key.budgetLabel, key.sample)),
  });
}

/** Whether jobs were lost with Redis (restarted without its data): the connection was lost since the plan began,
 * the queue is empty, nothing failed, and the store lacks episodes. */
async function jobsLost(playing: Playing, lossesAtPlan: number, failed: number): Promise<boolean> {
  if (playing.attached.losses() === lossesAtPlan || failed > 0) return false;
  const stored = await episodeTotals(playing.store, playing.prepared.run);
  return stored.done + stored.errors < playing.total;
}

/** Keep the queue fed (at most `window` jobs ahead), show progress, until every job finished or the stop signal
 * came (then the run's waiting jobs are removed). After Redis came back from a loss, the queue is announced to the
 * workers again, and jobs that Redis lost are queued again once the plan is through. */
async function play(playing: Playing): Promise<void> {
  const { store, attached, options, total, initial, window } = playing;
  const { run } = playing.prepared;
  let plan = episodePlan(playing, false);
  let planned = false;
  let lastProgress = 0;
  let lossesAtPlan = attached.losses();
  let lossesAnnounced = attached.losses();
  for (;;) {
    if (options.signal?.aborted === true) {
      await attached.step(() => attached.queue.drain(true));
      return;
    }
    const counts = await attached.step(() => queueCounts(attached.queue));
    if (attached.losses() !== lossesAnnounced) {
      lossesAnnounced = attached.losses();
      await attached.step(attached.announce);
    }
    const outstanding = counts.queued + counts.running;
    if (!planned && outstanding < window) {
      planned = await enqueue(attached, plan, window - outstanding, playing.jobOf);
      continue;
    }
    if (performance.now() - lastProgress >= PROGRESS_EVERY_MS || outstanding === 0) {
      lastProgress = performance.now();
      options.onProgress?.(await completedEpisodeCount(store, run), total, initial);
    }
    if (planned && outstanding === 0) {
      if (!(await jobsLost(playing, lossesAtPlan, counts.failed))) return;
      lossesAtPlan = attached.losses();
      plan = episodePlan(playing, true);
      planned = false;
      continue;
    }
    await pause(POLL_MS, options.signal);
  }
}

/** The run as the store holds it once the queue is done; a finished run's queue is deleted. */
async function finish(playing: Playing, name: string): Promise<ExecutedRun> {
  const { prepared, store, attached, options, total } = playing;
  await attached.step(async () => {
    await attached.client.srem(ACTIVE_QUEUES_KEY, name);
    await attached.client.publish(ACTIVE_QUEUES_KEY, name);
  });
  const totals = await episodeTotals(store, prepared.run);
  const { failed } = await attached.step(() => queueCounts(attached.queue));
  const [firstFailed] = failed === 0 ? [] : await attached.step(() => attached.queue.getFailed(0, 0));
  const complete = totals.done === total;
  if (complete) await setRunStatus(store, prepared.run, "complete");
  if (complete && failed === 0) await attached.step(() => attached.queue.obliterate({ force: true }));
  const firstError =
    totals.firstError ?? (firstFailed === undefined ? undefined : `queue job failed: ${firstFailed.failedReason}`);
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
    if (store === undefined)
      throw new ConfigError(
        "db",
        "the bullmq executor needs a run store that the workers can open",
        "give --db a file or a postgres:// URL",
      );
    const { run, config } = prepared;
    const total = plannedCount({
      taskCount: prepared.taskCount,
      budgets: budgetsToRun(config),
      samples: config.samples,
    });
    const address = workerStoreAddress(settings.db);
    const name = runQueueName(address, run);
    const client = settings.client;
    const jobOf = (spec: EpisodeSpec<unknown>): EpisodeJobEntry => ({
      name: EPISODE_JOB,
      data: {
        version: 1,
        db: address,
        run,
        taskIndex: spec.taskIndex,
        budget: spec.budget.label,
        sample: spec.sample,
        turnTimeout: options.runOptions.turnTimeout,
        busyTimeout: options.runOptions.busyTimeout,
        ...(client === undefined ? {} : { policyClient: client }),
      },
      opts: {
        jobId: episodeJobId(name, spec.taskIndex, spec.budget.label, spec.sample),
        attempts: settings.attempts ?? 5,
        backoff: { type: "exponential", delay: settings.backoffMs ?? 1000 },
        removeOnComplete: true,
        removeOnFail: false,
      },
    });
    const attached = await attach(settings.redis, name, settings.reconnectMs, options.signal, settings.onWait);
    try {
      const initial = await completedEpisodeCount(store, run);
      options.onStart?.({ run, total, initial });
      options.onProgress?.(initial, total, initial);
      const playing: Playing = {
        prepared,
        store,
        attached,
        options,
        total,
        initial,
        window: settings.window ?? 10_000,
        jobOf,
      };
      await play(playing);
      return await finish(playing, name);
    } catch (error) {
      throw attached.lost() ?? error;
    } finally {
      await attached.close();
    }
  };
}
