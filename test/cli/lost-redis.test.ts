// Redis (the queue of `eval --executor bullmq`) lost in the middle of a run, on a server of the test's own
// (throwaway-services.ts, no persistence: it comes back empty, as a restarted Redis without a save does), never the
// shared one. Mid-run for sure: a worker plays until its first episode is done and leaves, so jobs stay queued and
// the run cannot end before Redis stops. One that stays away past --reconnect-timeout (said after a second) ends the
// eval with exit 2 and one line naming it and the command to resume; the stored episodes are kept, and once it is back that command
// (run as printed) queues what is missing and completes the run. One that comes back in time is waited for: the eval
// announces its queue again and queues the jobs Redis lost. Either way the export equals an uninterrupted run's. A
// `budgetrl worker` that loses Redis says so once, then one line per attempt with its growing pause, then once that it
// is back (not an error line per connection per attempt).
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { beforeAll, expect, it } from "vitest";
import { ACTIVE_QUEUES_KEY } from "../../src/eval/bullmq/names.js";
import { startEpisodeWorker, type EpisodeWorker } from "../../src/eval/bullmq/worker.js";
import {
  exported,
  expectCompleted,
  LOST_RUN,
  LOST_RUN_EPISODES,
  referenceExport,
  resumeCommandOf,
} from "../helpers/lost-run.js";
import { describeWithOwnServices, throwawayRedis } from "../helpers/throwaway-services.js";
import { allText, argvOf, cli, exitOf, finished, spawnCli, textMatching } from "./helpers.js";

const dir = mkdtempSync(join(tmpdir(), "budgetrl-lost-redis-"));
let reference = "";

beforeAll(async () => {
  reference = await referenceExport(dir);
}, 60_000);

/** Episodes stored so far in an SQLite store. */
function stored(path: string): number {
  const db = new Database(path, { readonly: true, fileMustExist: true });
  try {
    return db.prepare("SELECT COUNT(*) FROM episodes").pluck().get() as number;
  } finally {
    db.close();
  }
}

/** A worker that plays until its first episode is done, then leaves (after the episodes in flight are stored). */
async function playOneAndLeave(redis: string): Promise<void> {
  let played: () => void = () => undefined;
  const first = new Promise<void>((resolve) => (played = resolve));
  const worker = await startEpisodeWorker({
    redis,
    concurrency: 4,
    name: "w-first",
    onEvent: (event) => event.kind === "episode-done" && played(),
  });
  await first;
  await worker.close();
}

describeWithOwnServices(["redis"], "Redis lost mid-run: an eval with --executor bullmq, a worker", () => {
  it("stays away: a line when the wait passes a second, one line at the end, exit 2, the stored episodes kept; the printed command re-attaches and completes the run once it is back", async () => {
    const redis = await throwawayRedis();
    const db = join(dir, "stays.db");
    let worker: EpisodeWorker | undefined;
    try {
      const result = finished(
        spawnCli([
          "eval",
          ...LOST_RUN,
          "--db",
          db,
          "--executor",
          "bullmq",
          "--redis",
          redis.url,
          "--reconnect-timeout",
          "2",
        ]),
      );
      await playOneAndLeave(redis.url);
      const kept = stored(db);
      expect(kept).toBeGreaterThan(0);
      expect(kept).toBeLessThan(LOST_RUN_EPISODES);
      await redis.stop();
      const hint = resumeCommandOf(
        await result,
        /^budgetrl eval: lost the connection to Redis at redis:\/\/127\.0\.0\.1:\d+ /,
      );
      expect(hint).toBe(`budgetrl eval --resume --run k --db ${db} --executor bullmq --redis ${redis.url}`);
      expect(stored(db)).toBe(kept);
      // Redis comes back empty: the resumed eval queues what is missing, and a worker plays it.
      await redis.start();
      worker = await startEpisodeWorker({ redis: redis.url, concurrency: 4, name: "w-after" });
      const resumed = await cli(...argvOf(hint), "--no-progress");
      expect(resumed.code, resumed.stderr).toBe(0);
      expect(resumed.stderr).toMatch(new RegExp(`run k: 1200 episodes \\(${kept} already stored\\)`));
      expect(await exported(db, dir)).toBe(reference);
    } finally {
      await worker?.close();
      await redis.remove();
    }
  }, 60_000);

  it("comes back in time, empty: the eval waits (saying so if it lasts a second), queues what Redis lost, and completes", async () => {
    const redis = await throwawayRedis();
    const db = join(dir, "back.db");
    let worker: EpisodeWorker | undefined;
    try {
      const result = finished(
        spawnCli([
          "eval",
          ...LOST_RUN,
          "--db",
          db,
          "--executor",
          "bullmq",
          "--redis",
          redis.url,
          "--reconnect-timeout",
          "30",
        ]),
      );
      await playOneAndLeave(redis.url);
      await redis.stop();
      await redis.start();
      worker = await startEpisodeWorker({ redis: redis.url, concurrency: 4, name: "w-after" });
      expectCompleted(await result);
      expect(await exported(db, dir)).toBe(reference);
    } finally {
      await worker?.close();
      await redis.remove();
    }
  }, 60_000);

  it("a worker that loses Redis says so once, then a line per attempt with its backoff, then once that it is back", async () => {
    const redis = await throwawayRedis();
    const worker = spawnCli(["worker", "--redis", redis.url, "--name", "w-quiet"]);
    const exit = exitOf(worker);
    const stderr = allText(worker.stderr!);
    const ready = textMatching(worker.stderr!, /ready on redis:/);
    try {
      // A queue being served, so that BullMQ's connections are there to lose too.
      const { Queue } = await import("bullmq");
      const queue = new Queue("bullmq-quiet-test", { connection: { url: redis.url } });
      await ready;
      const serving = textMatching(worker.stderr!, /taking jobs from bullmq-quiet-test/);
      const { Redis } = await import("ioredis");
      const announcer = new Redis(redis.url);
      await announcer.sadd(ACTIVE_QUEUES_KEY, queue.name);
      await announcer.publish(ACTIVE_QUEUES_KEY, queue.name);
      announcer.disconnect();
      await queue.close();
      await serving;
      const retried = textMatching(worker.stderr!, /attempt 3 failed/);
      await redis.stop();
      await retried;
      const back = textMatching(worker.stderr!, /is back after/);
      await redis.start();
      await back;
    } finally {
      worker.kill("SIGTERM");
      await redis.remove();
    }
    expect((await exit).code).toBe(143);
    const lines = (await stderr).split("\n").filter(Boolean);
    const told = lines.filter((line) => !/ready on|taking jobs from|stopped|no longer executed|SIGTERM/.test(line));
    const at = `redis://127\\.0\\.0\\.1:\\d+`;
    expect(told[0]).toMatch(
      new RegExp(`^worker w-quiet: lost the connection to Redis at ${at} \\(.+\\); trying again in 0\\.25 s`),
    );
    const attempts = told.slice(1, -1);
    expect(attempts.length).toBeGreaterThanOrEqual(3);
    attempts.forEach((line, i) =>
      expect(line).toMatch(
        new RegExp(
          `^worker w-quiet: Redis at ${at}: attempt ${i + 1} failed \\(.*ECONNREFUSED.*\\); next in ${[0.5, 1, 2, 4, 8][i] ?? 10} s$`,
        ),
      ),
    );
    expect(told.at(-1)).toMatch(
      new RegExp(
        `^worker w-quiet: Redis at ${at} is back after \\d+(\\.\\d+)? s \\(${attempts.length + 1} attempts\\); taking jobs again$`,
      ),
    );
  }, 60_000);
});
