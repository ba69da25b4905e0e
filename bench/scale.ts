// Scale-out throughput: episodes per second of `eval --executor bullmq` with 1, 2 and 4 `budgetrl worker` processes,
// each next to the local executor measured in the same run as the reference, for
//   1. a cheap env: sokoban with the oracle policy (CPU-bound; the queue's own cost shows), and
//   2. a policy with artificial latency: an OpenAI-compatible loopback server answering every request after
//      --latency-ms (every reply is invalid, so each episode takes exactly --turns turns, one request each);
//      the local reference runs with as many episodes in flight as all the workers together;
// and the queue's overhead per episode: (time per episode with one worker taking one job at a time) - (time per
// episode of the local executor one at a time), on the cheap env. Workers start (and are ready) before the clock
// starts; each measurement is a new run on its own queue. The store is an SQLite file in a temporary folder (the
// workers share it), or --db a postgres:// URL of an empty database (each measurement is a run in it).
// Redis: --redis URL, else $BUDGETRL_TEST_REDIS, else scripts/test-services.sh starts one on loopback.
// Run: npx tsx bench/scale.ts [--workers 1,2,4] [--episodes 2000] [--latency-episodes 400] [--latency-ms 20] [--turns 4]
//        [--concurrency 8] [--redis URL] [--db postgres://...]
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { evaluate, type EvaluateOptions } from "../src/eval/evaluate.js";
import { completion, startFakeServer } from "../test/policies/openai/fake-server.js";

const { values } = parseArgs({
  options: {
    workers: { type: "string", default: "1,2,4" },
    episodes: { type: "string", default: "2000" },
    "latency-episodes": { type: "string", default: "400" },
    "latency-ms": { type: "string", default: "20" },
    turns: { type: "string", default: "4" },
    concurrency: { type: "string", default: "8" },
    redis: { type: "string" },
    db: { type: "string" },
  },
});
const workerCounts = values.workers.split(",").map(Number);
const cheapEpisodes = Number(values.episodes);
const latencyEpisodes = Number(values["latency-episodes"]);
const latencyMs = Number(values["latency-ms"]);
const turns = Number(values.turns);
const perWorker = Number(values.concurrency);
const root = fileURLToPath(new URL("../", import.meta.url));

function redisUrl(): string {
  if (values.redis !== undefined) return values.redis;
  if (process.env["BUDGETRL_TEST_REDIS"] !== undefined) return process.env["BUDGETRL_TEST_REDIS"];
  const exports = execFileSync("bash", [join(root, "scripts/test-services.sh")], { encoding: "utf8" });
  const found = /BUDGETRL_TEST_REDIS=(\S+)/.exec(exports)?.[1];
  if (found === undefined) throw new Error("no Redis: give --redis URL");
  return found;
}

const redis = redisUrl();
const dir = mkdtempSync(join(tmpdir(), "budgetrl-bench-scale-"));
const db = values.db ?? join(dir, "scale.db");
let runNumber = 0;

/** `count` worker processes, once each has said it is ready. */
async function startWorkers(count: number, concurrency: number): Promise<ChildProcess[]> {
  const workers = Array.from({ length: count }, (_, i) =>
    spawn(
      process.execPath,
      [
        "--import",
        "tsx",
        join(root, "src/cli/main.ts"),
        "worker",
        "--redis",
        redis,
        "--concurrency",
        String(concurrency),
        "--name",
        `bench-${i}`,
      ],
      { cwd: root, stdio: ["ignore", "ignore", "pipe"] },
    ),
  );
  await Promise.all(
    workers.map(
      (worker) =>
        new Promise<void>((resolve, reject) => {
          let text = "";
          worker.stderr?.on("data", (chunk: Buffer) => {
            text += chunk.toString();
            if (/ready on/.test(text)) resolve();
          });
          worker.once("exit", (code) => reject(new Error(`worker exited (${code}): ${text}`)));
        }),
    ),
  );
  return workers;
}

async function stopWorkers(workers: readonly ChildProcess[]): Promise<void> {
  await Promise.all(
    workers.map((worker) => {
      const exited = new Promise<void>((resolve) => worker.once("exit", () => resolve()));
      worker.kill("SIGTERM");
      return exited;
    }),
  );
}

/** Episodes per second of one run. */
async function rate(options: EvaluateOptions, episodes: number): Promise<number> {
  const start = performance.now();
  const result = await evaluate({ ...options, db, run: `bench-${++runNumber}`, bootstrap: 0, annotate: false });
  const seconds = (performance.now() - start) / 1000;
  if (result.done !== episodes)
    throw new Error(`bench run incomplete: ${result.done}/${episodes} (${result.firstError ?? "no error"})`);
  return episodes / seconds;
}

const cheap = (episodes: number): EvaluateOptions => ({
  env: "sokoban",
  policy: "oracle",
  tasks: episodes / 4,
  samples: 4,
  ks: [1],
  budgets: ["100%"],
});

async function cheapEnv(): Promise<void> {
  console.log(
    `1. sokoban, oracle policy, ${cheapEpisodes} episodes per run (store: ${values.db === undefined ? "SQLite file" : "PostgreSQL"})`,
  );
  const local = await rate({ ...cheap(cheapEpisodes), concurrency: 1 }, cheapEpisodes);
  console.log(`   local executor (reference): ${local.toFixed(0)} episodes/s`);
  for (const count of workerCounts) {
    const workers = await startWorkers(count, 4);
    try {
      const queued = await rate({ ...cheap(cheapEpisodes), executor: "bullmq", redis }, cheapEpisodes);
      console.log(
        `   ${count} worker${count === 1 ? " " : "s"} (4 episodes each at once): ${queued.toFixed(0).padStart(5)} episodes/s, ${(queued / local).toFixed(2)}x the local executor`,
      );
    } finally {
      await stopWorkers(workers);
    }
  }
  // The queue's cost per episode: one worker taking one job at a time, against the local executor one at a time.
  const episodes = Math.min(cheapEpisodes, 800);
  const localOne = await rate({ ...cheap(episodes), concurrency: 1 }, episodes);
  const workers = await startWorkers(1, 1);
  try {
    const queuedOne = await rate({ ...cheap(episodes), executor: "bullmq", redis }, episodes);
    console.log(
      `   queue overhead per episode (1 worker, 1 job at a time, vs local): ${(1000 / queuedOne - 1000 / localOne).toFixed(2)} ms (${(1000 / queuedOne).toFixed(2)} ms vs ${(1000 / localOne).toFixed(2)} ms per episode)`,
    );
  } finally {
    await stopWorkers(workers);
  }
}

async function latencyPolicy(): Promise<void> {
  const server = await startFakeServer(() => ({
    kind: "json",
    body: completion([{ content: "I would rather not move." }]),
    delayMs: latencyMs,
  }));
  try {
    const slow = (concurrency: number): EvaluateOptions => ({
      env: "sokoban",
      policy: "openai:bench",
      policyClient: { baseUrl: server.url, cache: false, concurrency: 256 },
      tasks: latencyEpisodes,
      samples: 1,
      ks: [1],
      budgets: [String(turns)],
      concurrency,
    });
    console.log(
      `2. openai policy, loopback server answering after ${latencyMs} ms, ${turns} turns per episode, ${latencyEpisodes} episodes per run, ${perWorker} episodes at once per worker`,
    );
    for (const count of workerCounts) {
      const inFlight = count * perWorker;
      const local = await rate(slow(inFlight), latencyEpisodes);
      const workers = await startWorkers(count, perWorker);
      try {
        const queued = await rate({ ...slow(1), executor: "bullmq", redis }, latencyEpisodes);
        const ideal = inFlight / ((turns * latencyMs) / 1000);
        console.log(
          `   ${count} worker${count === 1 ? " " : "s"}: ${queued.toFixed(1).padStart(6)} episodes/s; local executor with ${String(inFlight).padStart(2)} in flight (reference): ${local.toFixed(1).padStart(6)}, ${(queued / local).toFixed(2)}x; latency-bound ideal ${ideal.toFixed(0)}`,
        );
      } finally {
        await stopWorkers(workers);
      }
    }
  } finally {
    await server.close();
  }
}

try {
  await cheapEnv();
  await latencyPolicy();
} finally {
  rmSync(dir, { recursive: true, force: true });
}
