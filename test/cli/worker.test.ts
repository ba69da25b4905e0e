// Scale-out end to end: one `budgetrl eval --executor bullmq` and three `budgetrl worker` processes, one of which is
// killed with SIGKILL while it holds jobs (read from the queue, not guessed from time); its episodes are retried
// by the others once their locks expire. The stored episodes equal a local run's with the same seeds (export byte
// for byte), each exactly once; on an SQLite file shared by the workers and on PostgreSQL. The policy is a model
// behind a loopback server that answers after a short delay, so that every episode is still in flight when its
// worker dies; its answers depend only on the request's seed, so every run gets the same ones. A run stopped with
// Ctrl-C mid-way and resumed with the command it printed exports the same bytes as the local run and the queued one.
import type { ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Queue, QueueEvents } from "bullmq";
import { afterAll, beforeAll, expect, it } from "vitest";
import { evaluate } from "../../src/eval/evaluate.js";
import { runQueueName, workerStoreAddress } from "../../src/eval/bullmq/names.js";
import { queueCounts } from "../../src/eval/bullmq/queue-counts.js";
import { startEpisodeWorker } from "../../src/eval/bullmq/worker.js";
import { completedEpisodeCount } from "../../src/store/episodes.js";
import { withStore } from "../../src/store/open.js";
import { completion, startFakeServer, type FakeServer } from "../policies/openai/fake-server.js";
import { describeWithServices, freshRedis, STORE_BACKENDS } from "../helpers/services.js";
import { until } from "../helpers/until.js";
import { allText, argvOf, cli, exitOf, spawnCli, textMatching } from "./helpers.js";

const dir = mkdtempSync(join(tmpdir(), "budgetrl-workers-"));
const MOVES = ["Up", "Down", "Left", "Right"];
const RUN = [
  "--env",
  "sokoban",
  "--policy",
  "openai:fake",
  "--tasks",
  "8",
  "--samples",
  "4",
  "--k",
  "1,4",
  "--budget",
  "6",
  "--seed",
  "3",
  "--bootstrap",
  "0",
  "--run",
  "k",
  "--no-cache",
];

describeWithServices(["redis", "postgres"], "three worker processes, one killed with SIGKILL mid-run", () => {
  let server: FakeServer;
  let redis: string;
  let local: string;
  beforeAll(async () => {
    server = await startFakeServer((request) => ({
      kind: "json",
      body: completion([{ content: MOVES[Number(request.body["seed"]) % 4] as string }]),
      delayMs: 15,
    }));
    redis = await freshRedis(2);
    local = join(dir, "local.db");
    const reference = await evaluate({
      env: "sokoban",
      policy: "openai:fake",
      policyClient: { baseUrl: server.url, cache: false },
      tasks: 8,
      samples: 4,
      ks: [1, 4],
      budgets: ["6"],
      seed: 3,
      bootstrap: 0,
      db: local,
      run: "k",
      concurrency: 8,
    });
    expect(reference).toMatchObject({ complete: true, done: 32 });
  });
  afterAll(async () => {
    await server.close();
  });

  const storedEpisodes = (db: string): Promise<number> =>
    existsSync(db)
      ? withStore(db, { mode: "read" }, (store) => completedEpisodeCount(store, "k")).catch(() => 0)
      : Promise.resolve(0);

  const exported = async (db: string, name: string): Promise<string> => {
    const out = join(dir, `${name}.jsonl`);
    expect((await cli("export", "k", "--db", db, "--out", out)).code).toBe(0);
    return readFileSync(out, "utf8");
  };

  for (const backend of STORE_BACKENDS) {
    it(`stores every episode exactly once, equal to a local run's (${backend.name})`, async () => {
      const db = await backend.fresh("shared");
      const queue = new Queue(runQueueName(workerStoreAddress(db), "k"), { connection: { url: redis } });
      const events = new QueueEvents(queue.name, { connection: { url: redis } });
      const stalled: string[] = [];
      events.on("stalled", ({ jobId }) => stalled.push(jobId));
      await events.waitUntilReady();
      const workers: ChildProcess[] = [1, 2, 3].map((n) =>
        spawnCli([
          "worker",
          "--redis",
          redis,
          "--concurrency",
          "2",
          "--name",
          `w${n}-${backend.name}`,
          "--lock-duration",
          "1500",
          "--stalled-interval",
          "300",
        ]),
      );
      const exits = workers.map((worker) => exitOf(worker));
      const logs = workers.map((worker) => allText(worker.stderr!));
      try {
        await Promise.all(workers.map((worker) => textMatching(worker.stderr!, /ready on redis:/)));
        const run = cli(
          "eval",
          ...RUN,
          "--base-url",
          server.url,
          "--db",
          db,
          "--executor",
          "bullmq",
          "--redis",
          redis,
          "--no-progress",
        );
        const victim = `w1-${backend.name}`;
        const held = await until(
          () => queue.getActive(),
          (jobs) => jobs.some((job) => job.processedBy === victim),
          `a job held by ${victim}`,
        );
        workers[0]!.kill("SIGKILL");
        expect((await exits[0])!.signal).toBe("SIGKILL");
        const result = await run;
        expect(result.code, result.stderr).toBe(0);
        expect(result.stderr).toMatch(/run k: 32 episodes, stored in .* as they finish/);
        // The jobs the victim held were retried by the stalled-job check, and stored once.
        const lost = held.filter((job) => job.processedBy === victim).map((job) => job.id);
        expect(lost.length).toBeGreaterThan(0);
        expect(stalled).toEqual(expect.arrayContaining(lost));
        const [[count, distinct]] = (await withStore(db, { mode: "read" }, (store) =>
          store.sql.rows<[number, number]>(
            "SELECT COUNT(*), COUNT(DISTINCT CAST(task_index AS TEXT) || '|' || budget_label || '|' || CAST(sample AS TEXT)) FROM episodes WHERE run_id = 'k'",
          ),
        )) as [[number, number]];
        expect([count, distinct]).toEqual([32, 32]);
        expect(await exported(db, `queued-${backend.name}`)).toBe(await exported(local, `local-${backend.name}`));
      } finally {
        for (const worker of workers.slice(1)) worker.kill("SIGTERM");
        const ended = await Promise.all(exits.slice(1));
        for (const exit of ended) expect(exit.code).toBe(143);
        expect(await logs[1]).toMatch(/stopped: \d+ episodes played/);
        await events.close();
        await queue.close();
      }
    }, 120_000);
  }

  it("survives the eval's own kill -9: --resume re-attaches to the queued jobs without adding them twice", async () => {
    const db = join(dir, "restarted.db");
    const queue = new Queue(runQueueName(workerStoreAddress(db), "k"), { connection: { url: redis } });
    const events = new QueueEvents(queue.name, { connection: { url: redis } });
    const duplicated: string[] = [];
    events.on("duplicated", ({ jobId }) => duplicated.push(jobId));
    await events.waitUntilReady();
    const flags = [...RUN, "--base-url", server.url, "--db", db, "--executor", "bullmq", "--redis", redis];
    // No worker yet: the eval queues its 32 jobs and waits for them; then it is killed.
    const first = spawnCli(["eval", ...flags]);
    const firstExit = exitOf(first);
    await until(
      () => queueCounts(queue),
      (counts) => counts.queued === 32,
      "32 queued jobs",
    );
    first.kill("SIGKILL");
    expect((await firstExit).signal).toBe("SIGKILL");
    const again = cli(
      "eval",
      "--resume",
      "--run",
      "k",
      "--db",
      db,
      "--executor",
      "bullmq",
      "--redis",
      redis,
      "--base-url",
      server.url,
      "--no-cache",
      "--no-progress",
    );
    await until(
      () => Promise.resolve(duplicated.length),
      (count) => count === 32,
      "the re-attached eval to offer its 32 jobs again",
    );
    expect(await queueCounts(queue)).toEqual({ queued: 32, running: 0, failed: 0 });
    const worker = await startEpisodeWorker({ redis, concurrency: 8, name: "late" });
    try {
      const resumed = await again;
      expect(resumed.code, resumed.stderr).toBe(0);
      expect(worker.stats()).toMatchObject({ done: 32, written: 32 });
    } finally {
      await worker.close();
      await events.close();
      await queue.close();
    }
    expect(await exported(db, "restarted")).toBe(await exported(local, "local-restarted"));
  }, 120_000);

  it("Ctrl-C mid-run removes the run's waiting jobs; the printed resume command completes it, its export equal to a local run's", async () => {
    const db = join(dir, "interrupted.db");
    const queue = new Queue(runQueueName(workerStoreAddress(db), "k"), { connection: { url: redis } });
    // One episode at a time, so that the run is stopped with some of its episodes stored and most not.
    const early = await startEpisodeWorker({ redis, concurrency: 1, name: "before-ctrl-c" });
    const child = spawnCli([
      "eval",
      ...RUN,
      "--base-url",
      server.url,
      "--db",
      db,
      "--executor",
      "bullmq",
      "--redis",
      redis,
    ]);
    const exit = exitOf(child);
    const stderr = allText(child.stderr!);
    try {
      await until(
        () => storedEpisodes(db),
        (count) => count >= 3,
        "three episodes stored",
      );
      child.kill("SIGINT");
      expect((await exit).code).toBe(130);
    } finally {
      // The episode in flight finishes and is stored.
      await early.close();
    }
    expect(await queueCounts(queue)).toEqual({ queued: 0, running: 0, failed: 0 });
    const kept = await storedEpisodes(db);
    expect(kept).toBeGreaterThanOrEqual(3);
    expect(kept).toBeLessThan(32);
    const hint = /Continue with: (budgetrl eval .*)\n/.exec(await stderr)?.[1] ?? "";
    expect(hint).toBe(
      `budgetrl eval --resume --run k --db ${db} --executor bullmq --redis ${redis} --base-url ${server.url} --no-cache`,
    );
    const worker = await startEpisodeWorker({ redis, concurrency: 8, name: "after-ctrl-c" });
    try {
      const resumed = await cli(...argvOf(hint), "--no-progress");
      expect(resumed.code, resumed.stderr).toBe(0);
      expect(resumed.stderr).toMatch(new RegExp(`run k: 32 episodes \\(${kept} already stored\\)`));
    } finally {
      await worker.close();
      await queue.close();
    }
    expect(await exported(db, "interrupted")).toBe(await exported(local, "local-interrupted"));
  }, 120_000);
});
