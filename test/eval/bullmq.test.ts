// The bullmq executor with workers in this process: the stored episodes equal a local run's with the same seeds
// (export byte for byte) on both store backends; a job that can never succeed fails at once and is retried by a
// re-attached eval; a generated run stopped mid-way and continued by workers draws the uninterrupted run's distinct
// tasks; a stop removes the run's waiting jobs; `runs --redis` shows the queue's counts.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Queue } from "bullmq";
import { afterAll, beforeAll, expect, it } from "vitest";
import { evaluate, type EvaluateOptions } from "../../src/eval/evaluate.js";
import { queueCounts } from "../../src/eval/bullmq/queue-counts.js";
import { runQueueName, workerStoreAddress } from "../../src/eval/bullmq/names.js";
import { startEpisodeWorker, type EpisodeWorker } from "../../src/eval/bullmq/worker.js";
import { exportRunJsonl } from "../../src/store/export.js";
import { withStore } from "../../src/store/open.js";
import { loadTasks } from "../../src/store/runs.js";
import { cli } from "../cli/helpers.js";
import { describeWithServices, freshRedis, STORE_BACKENDS } from "../helpers/services.js";
import { until } from "../helpers/until.js";

const dir = mkdtempSync(join(tmpdir(), "budgetrl-bullmq-"));
const RUN = {
  env: "sokoban",
  policy: "noisy-oracle:0.3",
  tasks: 6,
  samples: 3,
  ks: [1, 2],
  budgets: ["50%", "100%"],
  seed: 11,
  bootstrap: 50,
  now: () => new Date(0),
} satisfies EvaluateOptions;

/** The Redis keys of a queue (none once a run finished and deleted it). */
async function queueKeys(redis: string, queue: string): Promise<string[]> {
  const { Redis } = await import("ioredis");
  const client = new Redis(redis);
  try {
    return await client.keys(`bull:${queue}:*`);
  } finally {
    client.disconnect();
  }
}

async function exported(db: string, run: string): Promise<string> {
  const out = join(dir, `${run}-${Math.random().toString(36).slice(2)}.jsonl`);
  await withStore(db, { mode: "read" }, (store) => exportRunJsonl(store, run, out));
  return readFileSync(out, "utf8");
}

describeWithServices(["redis", "postgres"], "the bullmq executor", () => {
  let redis: string;
  let worker: EpisodeWorker | undefined;
  beforeAll(async () => {
    redis = await freshRedis(1);
  });
  afterAll(async () => {
    await worker?.close();
  });
  const startWorker = async (): Promise<EpisodeWorker> =>
    (worker = await startEpisodeWorker({ redis, concurrency: 4, name: "in-test" }));
  const stopWorker = async (): Promise<void> => {
    await worker?.close();
    worker = undefined;
  };

  for (const backend of STORE_BACKENDS) {
    it(`stores the episodes of a local run with the same seeds, each once, and deletes the finished queue (${backend.name})`, async () => {
      const local = join(dir, `local-${backend.name}.db`);
      const reference = await evaluate({ ...RUN, db: local, run: "r" });
      const db = await backend.fresh("queued");
      await startWorker();
      const queued = await evaluate({ ...RUN, db, run: "r", executor: "bullmq", redis });
      await stopWorker();
      expect(queued).toMatchObject({ complete: true, done: 36, total: 36, errors: 0, interrupted: false });
      expect(queued.table).toEqual(reference.table);
      expect(await exported(db, "r")).toBe(await exported(local, "r"));
      expect(await queueKeys(redis, runQueueName(workerStoreAddress(db), "r"))).toEqual([]);
    }, 60_000);
  }

  it("fails a job that can never succeed at once, shows it in `runs --redis`, and retries it when the eval re-attaches", async () => {
    const replay = join(dir, "replay.json");
    writeFileSync(replay, "{}");
    const db = join(dir, "failing.db");
    const options = {
      ...RUN,
      tasks: 2,
      samples: 1,
      ks: [1],
      budgets: ["100%"],
      policy: `replay:${replay}`,
      db,
      run: "f",
      executor: "bullmq",
      redis,
    } satisfies EvaluateOptions;
    // The workers cannot build the policy: its file is gone by the time they read the run.
    let removed!: () => void;
    const started = new Promise<void>((resolve) => (removed = resolve));
    const pending = evaluate({
      ...options,
      onStart: () => {
        rmSync(replay);
        removed();
      },
    });
    await started;
    await startWorker();
    const failed = await pending;
    expect(failed).toMatchObject({ complete: false, done: 0, total: 2, errors: 2 });
    expect(failed.firstError).toMatch(/^queue job failed: .*cannot read replay file/);
    const queue = new Queue(runQueueName(workerStoreAddress(db), "f"), { connection: { url: redis } });
    const jobs = await queue.getFailed();
    expect(jobs.map((job) => job.attemptsMade)).toEqual([1, 1]);
    const runs = await cli("runs", "--db", db, "--redis", redis);
    expect(runs.stdout).toMatch(/queued +running +failed/);
    expect(runs.stdout).toMatch(/\bf +sokoban .* 0 +0 +2 +running/);
    writeFileSync(replay, "{}");
    const resumed = await evaluate({ ...options, resume: true });
    expect(resumed).toMatchObject({ complete: true, done: 2, errors: 0 });
    await queue.close();
    expect(await queueKeys(redis, runQueueName(workerStoreAddress(db), "f"))).toEqual([]);
    await stopWorker();
  }, 60_000);

  it("continues a generated run stopped mid-way with the distinct tasks an uninterrupted run draws", async () => {
    // 4x4 frozenlake: plain draws repeat, so the tasks made on resume depend on the stored ones they must avoid.
    const lake = {
      env: "frozenlake",
      policy: "oracle",
      tasks: 200,
      samples: 1,
      ks: [1],
      budgets: ["100%"],
      seed: 2,
      bootstrap: 0,
      now: () => new Date(0),
    } satisfies EvaluateOptions;
    const local = join(dir, "lake-local.db");
    await evaluate({ ...lake, db: local, run: "l" });
    const db = join(dir, "lake-queued.db");
    const controller = new AbortController();
    const stopped = await evaluate({
      ...lake,
      db,
      run: "l",
      signal: controller.signal,
      onProgress: (done) => void (done >= 5 && controller.abort()),
    });
    expect(stopped.interrupted).toBe(true);
    await startWorker();
    const resumed = await evaluate({
      db,
      run: "l",
      resume: true,
      executor: "bullmq",
      redis,
      env: "frozenlake",
      policy: undefined as unknown as string,
    });
    await stopWorker();
    expect(resumed).toMatchObject({ complete: true, done: 200 });
    const ids = await withStore(db, { mode: "read" }, async (store) =>
      (await loadTasks(store, "l")).map((task) => task.id),
    );
    expect(new Set(ids).size).toBe(200);
    expect(await exported(db, "l")).toBe(await exported(local, "l"));
  }, 60_000);

  it("removes the run's waiting jobs on a stop, and continues with --resume", async () => {
    const db = join(dir, "stopped.db");
    const controller = new AbortController();
    const queue = new Queue(runQueueName(workerStoreAddress(db), "s"), { connection: { url: redis } });
    const pending = evaluate({ ...RUN, db, run: "s", executor: "bullmq", redis, signal: controller.signal });
    // No worker runs: every job waits in the queue.
    await until(
      () => queueCounts(queue),
      (counts) => counts.queued === 36,
      "36 queued jobs",
    );
    controller.abort();
    const stopped = await pending;
    expect(stopped).toMatchObject({ interrupted: true, complete: false, done: 0 });
    expect(await queueCounts(queue)).toEqual({ queued: 0, running: 0, failed: 0 });
    await startWorker();
    const resumed = await evaluate({
      db,
      run: "s",
      resume: true,
      executor: "bullmq",
      redis,
      env: "sokoban",
      policy: undefined as unknown as string,
    });
    expect(resumed).toMatchObject({ complete: true, done: 36 });
    await queue.close();
    await stopWorker();
  }, 60_000);
});
