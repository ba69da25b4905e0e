// `budgetrl view` on a store of about 1,000,000 turns: two runs of 1,000 tasks x 4 budgets x 20 samples (80,000
// episodes, about 550,000 turns each) and eight small ones, every turn with a board observation and its budget
// sentence, 3% invalid replies, oracle annotations. The view is served as `budgetrl view --db` serves it (the store
// opened read-only, node:http on loopback) and its pages fetched over HTTP: the runs list (every run on one page), a
// large run's page cold (its bootstrap intervals computed) and warm (kept), filtered to its invalid replies and on a
// deep page, its episodes, and the two large runs compared. Targets (a quiet machine): the runs list under 300 ms, a
// run page under 1 s, an episode under 100 ms. The reference in the same run: outcomeCounts of the large run (the
// query behind every Pass@(K,T) table), what `show` computes for a large run (its table, 1,000 bootstrap resamples:
// the bulk of a cold run page), and the view's stylesheet (the server's floor). The store is SQLite, or with
// --postgres an empty PostgreSQL database (its URL), written through the store's own writers either way.
// Run: npx tsx bench/view.ts [--samples 20] [--postgres postgres://USER@HOST/DATABASE]
import { mkdtempSync, rmSync } from "node:fs";
import { request } from "node:http";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import type { Episode, Turn } from "../src/core/episode.js";
import { assistantMessage, userMessage } from "../src/core/message.js";
import { encodeEvalConfig, parseEvalConfig } from "../src/eval/config.js";
import { storedRunOutcomes, tableFor } from "../src/eval/table.js";
import { outcomeCounts, writeEpisodes } from "../src/store/episodes.js";
import { createRun, getRun } from "../src/store/runs.js";
import { openStore } from "../src/store/open.js";
import type { Store } from "../src/store/store.js";
import { openViewSource } from "../src/view/source.js";
import { startViewServer } from "../src/view/server.js";

const { values } = parseArgs({ options: { samples: { type: "string", default: "20" }, postgres: { type: "string" } } });
const SAMPLES = Number(values.samples);
const BUDGETS = [
  ["25%", 6],
  ["50%", 12],
  ["75%", 18],
  ["100%", 24],
] as const;
const BOARD = "#######\n#  .  #\n# $@  #\n#     #\n#######";

const PREAMBLE = [{ role: "system", content: "Push every box onto a goal." }] as const;

/** One episode of a task whose optimum is `length` turns, played by a policy that errs `eps` of the time. */
function episodeOf(
  run: string,
  task: { readonly index: number; readonly id: string; readonly length: number },
  budget: { readonly label: string; readonly turns: number },
  sample: number,
  eps: number,
  random: () => number,
): Episode {
  const used = Math.min(budget.turns, task.length + Math.floor(random() * 4));
  const success = random() < 1 - eps && used < budget.turns;
  const turns: Turn[] = Array.from({ length: used }, (_, at) => {
    const invalid = random() < 0.03;
    return {
      index: at + 1,
      segment: 0,
      observation: [userMessage(`${BOARD}\nTurn ${at + 1} of ${budget.turns}: ${budget.turns - at} turns left.`)],
      action: assistantMessage(invalid ? "I would go up" : "<answer>Up</answer>"),
      parsedAction: invalid ? null : "Up",
      invalid,
      reward: 0,
      terminated: false,
      truncated: false,
      progress: 0,
      stateKey: "k",
      optimal: random() < 0.8,
      remainingBefore: task.length - at,
    };
  });
  return {
    run,
    env: "sokoban",
    taskId: task.id,
    taskIndex: task.index,
    budget: { turns: budget.turns, mode: "announced", scope: "episode", label: budget.label },
    sample,
    seed: sample,
    preamble: PREAMBLE,
    turns,
    success,
    stopReason: success ? "success" : "max_turns",
    stopLimit: success ? null : "episode",
    turnsUsed: used,
    successTurn: success ? used : null,
    return: success ? 1 : 0,
    initialProgress: 0,
  };
}

/** The store's runs, written through its own writers (createRun, writeEpisodes); the number of turns. */
async function fill(store: Store): Promise<number> {
  let state = 12345;
  const random = (): number => (state = (Math.imul(state, 1103515245) + 12345) >>> 0) / 4294967296;
  let turns = 0;
  const addRun = async (id: string, tasks: number, samples: number, created: string, eps: number): Promise<void> => {
    const policy = `noisy-oracle:${eps}`;
    const config = parseEvalConfig({
      env: "sokoban",
      policy,
      tasks,
      samples,
      ks: [1, 2, 4].filter((k) => k <= samples),
      budgets: BUDGETS.map(([label]) => label),
      seed: 1,
    });
    const heads = Array.from({ length: tasks }, (_, index) => ({
      index,
      id: `sokoban-${index.toString(16).padStart(8, "0")}`,
      length: 3 + (index % 6),
    }));
    const record = { id, createdAt: created, env: "sokoban", policy, seed: 1, codeVersion: "bench" } as const;
    await createRun(
      store,
      { ...record, config: encodeEvalConfig(config), status: "complete" },
      heads.map((head) => ({
        index: head.index,
        id: head.id,
        task: {},
        referenceBudget: 24,
        optimalTurns: head.length,
      })),
    );
    let batch: Episode[] = [];
    for (const head of heads) {
      for (const [label, budgetTurns] of BUDGETS)
        for (let sample = 0; sample < samples; sample++)
          batch.push(episodeOf(id, head, { label, turns: budgetTurns }, sample, eps, random));
      if (batch.length < 2000) continue;
      turns += batch.reduce((sum, episode) => sum + episode.turns.length, 0);
      await writeEpisodes(store, batch);
      batch = [];
    }
    turns += batch.reduce((sum, episode) => sum + episode.turns.length, 0);
    await writeEpisodes(store, batch);
  };
  await addRun("large-a", 1000, SAMPLES, "2026-01-01T00:00:00Z", 0.3);
  await addRun("large-b", 1000, SAMPLES, "2026-01-01T00:00:01Z", 0.5);
  for (let small = 0; small < 8; small++) await addRun(`small-${small}`, 50, 4, `2026-01-02T00:00:0${small}Z`, 0.4);
  return turns;
}

/** Milliseconds to fetch a page whole (status 200 required). */
function fetched(base: string, path: string): Promise<number> {
  const start = performance.now();
  return new Promise((resolve, reject) => {
    request(new URL(path, base), (response) => {
      response.resume();
      response.on("end", () =>
        response.statusCode === 200
          ? resolve(performance.now() - start)
          : reject(new Error(`${path}: HTTP ${response.statusCode}`)),
      );
    })
      .on("error", reject)
      .end();
  });
}

const median = (times: readonly number[]): number => [...times].sort((a, b) => a - b)[Math.floor(times.length / 2)]!;

async function medianOf(base: string, paths: readonly string[]): Promise<number> {
  const times: number[] = [];
  for (const path of paths) times.push(await fetched(base, path));
  return median(times);
}

const dir = mkdtempSync(join(tmpdir(), "budgetrl-bench-view-"));
try {
  const db = values.postgres ?? join(dir, "view.db");
  const store = await openStore(db, { mode: "create" });
  const fillStart = performance.now();
  const turns = await fill(store);
  // A store filled over weeks has its planner statistics (autovacuum's ANALYZE); one filled in a minute needs them now.
  if (store.backend === "postgres") await store.sql.run("ANALYZE");
  await store.close();
  console.log(
    `stored ${turns.toLocaleString("en-US")} turns in ${store.location} in ${((performance.now() - fillStart) / 1000).toFixed(1)} s`,
  );
  const source = await openViewSource(db);
  const server = await startViewServer({ source, port: 0 });
  const start = performance.now();
  await outcomeCounts(source.store, "large-a");
  const reference = performance.now() - start;
  const floor = await medianOf(server.url, Array(9).fill("/assets/view.css"));
  // What `budgetrl show large-b` computes: the run's outcomes and its Pass@(K,T) table with 1,000 bootstrap resamples.
  const showStart = performance.now();
  const config = parseEvalConfig((await getRun(source.store, "large-b")).config);
  tableFor(config, await storedRunOutcomes(source.store, "large-b", config));
  const show = performance.now() - showStart;
  console.log(
    `references: outcomeCounts of large-a ${reference.toFixed(0)} ms; show's table of large-b ${show.toFixed(0)} ms; the stylesheet ${floor.toFixed(1)} ms`,
  );
  const results: [string, number, number | null][] = [];
  const measure = async (label: string, ms: number, target: number | null): Promise<void> => {
    results.push([label, ms, target]);
    const verdict =
      target === null ? "" : ms < target ? ` (target < ${target} ms: met)` : ` (target < ${target} ms: MISSED)`;
    console.log(
      `${label}: ${ms.toFixed(0)} ms, ${(ms / reference).toFixed(2)}x outcomeCounts, ${(ms / show).toFixed(2)}x show${verdict}`,
    );
  };
  await measure("runs list, first request", await fetched(server.url, "/"), 300);
  await measure("runs list (median of 9)", await medianOf(server.url, Array(9).fill("/")), 300);
  await measure("run page of large-a, cold", await fetched(server.url, "/run?id=large-a"), 1000);
  await measure(
    "run page of large-a, warm (median of 9)",
    await medianOf(server.url, Array(9).fill("/run?id=large-a")),
    1000,
  );
  await measure(
    "run page of large-b, cold, invalid replies, tasks sorted by T = 25%",
    await fetched(server.url, "/run?id=large-b&outcome=invalid&tsort=25%25&tsort-dir=desc"),
    1000,
  );
  await measure(
    "run page of large-a, failures, page 600 of the episodes",
    await fetched(server.url, "/run?id=large-a&outcome=failure&page=600"),
    1000,
  );
  let seed = 7;
  const next = (n: number): number => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) % n;
  const episodes = Array.from(
    { length: 21 },
    () =>
      `/episode?run=large-a&task=${next(1000)}&budget=${encodeURIComponent(BUDGETS[next(4)]![0])}&sample=${next(SAMPLES)}`,
  );
  await measure("episode page (median of 21 random)", await medianOf(server.url, episodes), 100);
  await measure(
    "episode page within invalid replies (median of 21)",
    await medianOf(
      server.url,
      episodes.map((path) => `${path}&in-outcome=invalid`),
    ),
    100,
  );
  await measure(
    "compare large-a and large-b, cold",
    await fetched(server.url, "/compare?run=large-a&run=large-b"),
    null,
  );
  const [one, five, fifteen] = loadavg();
  console.log(
    `load average ${one!.toFixed(2)}, ${five!.toFixed(2)}, ${fifteen!.toFixed(2)} on this machine (the bench included)`,
  );
  const missed = results.filter(([, ms, target]) => target !== null && ms >= target);
  console.log(
    missed.length === 0 ? "every target met" : `targets missed: ${missed.map(([label]) => label).join("; ")}`,
  );
  await server.close();
  await source.store.close();
} finally {
  rmSync(dir, { recursive: true, force: true });
}
