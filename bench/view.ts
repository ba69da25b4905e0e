// `budgetrl view` on a store of about 1,000,000 turns: two runs of 1,000 tasks x 4 budgets x 20 samples (80,000
// episodes, about 550,000 turns each) and eight small ones, every turn with a board observation and its budget
// sentence, 3% invalid replies, oracle annotations. The view is served as `budgetrl view --db` serves it (the store
// opened read-only, node:http on loopback) and its pages fetched over HTTP: the runs list (every run on one page), a
// large run's page cold (its bootstrap intervals computed) and warm (kept), filtered to its invalid replies and on a
// deep page, its episodes, and the two large runs compared. Targets (a quiet machine): the runs list under 300 ms, a
// run page under 1 s, an episode under 100 ms. The reference in the same run: outcomeCounts of the large run (the
// query behind every Pass@(K,T) table), and the view's stylesheet (the server's floor).
// Run: npx tsx bench/view.ts [--samples 20]
import { mkdtempSync, rmSync } from "node:fs";
import { request } from "node:http";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { encodeEvalConfig, parseEvalConfig } from "../src/eval/config.js";
import { outcomeCounts } from "../src/store/episodes.js";
import { openSqliteStore, type SqliteStore } from "../src/store/sqlite/open.js";
import { openViewSource } from "../src/view/source.js";
import { startViewServer } from "../src/view/server.js";

const { values } = parseArgs({ options: { samples: { type: "string", default: "20" } } });
const SAMPLES = Number(values.samples);
const BUDGETS = [
  ["25%", 6],
  ["50%", 12],
  ["75%", 18],
  ["100%", 24],
] as const;
const BOARD = "#######\n#  .  #\n# $@  #\n#     #\n#######";

function fill(store: SqliteStore): number {
  const run = store.db.prepare(
    "INSERT INTO runs (id, created_at, env, policy, seed, config, code_version, status) VALUES (?, ?, 'sokoban', ?, 1, ?, 'bench', 'complete')",
  );
  const task = store.db.prepare(
    "INSERT INTO tasks (run_id, task_index, task_id, task, reference_budget, optimal_turns) VALUES (?, ?, ?, '{}', 24, ?)",
  );
  const episode = store.db.prepare(
    `INSERT INTO episodes (run_id, task_index, budget_label, sample, seed, budget_turns, budget_mode, budget_scope, success, stop_reason, stop_limit, turns_used, success_turn, return, initial_progress, error, preamble)
     VALUES (?, ?, ?, ?, ?, ?, 'announced', 'episode', ?, ?, NULL, ?, ?, ?, 0, NULL, '[{"role":"system","content":"Push every box onto a goal."}]')`,
  );
  const turn = store.db.prepare(
    `INSERT INTO turns (run_id, task_index, budget_label, sample, turn_index, segment, observation, action, parsed_action, invalid, reward, terminated, truncated, progress, state_key, optimal, remaining_before, value_before, forced, details)
     VALUES (?, ?, ?, ?, ?, 0, ?, ?, ?, ?, 0, 0, 0, 0, 'k', ?, ?, NULL, NULL, NULL)`,
  );
  let state = 12345;
  const random = (): number => (state = (Math.imul(state, 1103515245) + 12345) >>> 0) / 4294967296;
  let turns = 0;
  const addRun = (id: string, tasks: number, samples: number, created: string, eps: number): void => {
    const config = parseEvalConfig({
      env: "sokoban",
      policy: `noisy-oracle:${eps}`,
      tasks,
      samples,
      ks: [1, 2, 4],
      budgets: BUDGETS.map(([label]) => label),
      seed: 1,
    });
    run.run(id, created, `noisy-oracle:${eps}`, JSON.stringify(encodeEvalConfig(config)));
    for (let index = 0; index < tasks; index++) {
      const length = 3 + (index % 6);
      task.run(id, index, `sokoban-${index.toString(16).padStart(8, "0")}`, length);
      for (const [label, budgetTurns] of BUDGETS)
        for (let sample = 0; sample < samples; sample++) {
          const used = Math.min(budgetTurns, length + Math.floor(random() * 4));
          const success = random() < 1 - eps && used < budgetTurns;
          episode.run(
            id,
            index,
            label,
            sample,
            sample,
            budgetTurns,
            success ? 1 : 0,
            success ? "success" : "max_turns",
            used,
            success ? used : null,
            success ? 1 : 0,
          );
          for (let at = 1; at <= used; at++) {
            const invalid = random() < 0.03;
            const observation = JSON.stringify([
              { role: "user", content: `${BOARD}\nTurn ${at} of ${budgetTurns}: ${budgetTurns - at + 1} turns left.` },
            ]);
            const reply = JSON.stringify({
              role: "assistant",
              content: invalid ? "I would go up" : "<answer>Up</answer>",
            });
            turn.run(
              id,
              index,
              label,
              sample,
              at,
              observation,
              reply,
              invalid ? null : "Up",
              invalid ? 1 : 0,
              random() < 0.8 ? 1 : 0,
              length - at + 1,
            );
            turns++;
          }
        }
    }
  };
  store.db.transaction(() => {
    addRun("large-a", 1000, SAMPLES, "2026-01-01T00:00:00Z", 0.3);
    addRun("large-b", 1000, SAMPLES, "2026-01-01T00:00:01Z", 0.5);
    for (let small = 0; small < 8; small++) addRun(`small-${small}`, 50, 4, `2026-01-02T00:00:0${small}Z`, 0.4);
  })();
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
  const db = join(dir, "view.db");
  const store = openSqliteStore(db, { mode: "create", busyTimeoutMs: 10_000 });
  const fillStart = performance.now();
  const turns = fill(store);
  await store.close();
  console.log(
    `stored ${turns.toLocaleString("en-US")} turns in ${((performance.now() - fillStart) / 1000).toFixed(1)} s`,
  );
  const source = await openViewSource(db);
  const server = await startViewServer({ source, port: 0 });
  const start = performance.now();
  await outcomeCounts(source.store, "large-a");
  const reference = performance.now() - start;
  const floor = await medianOf(server.url, Array(9).fill("/assets/view.css"));
  console.log(`reference: outcomeCounts of large-a ${reference.toFixed(0)} ms; the stylesheet ${floor.toFixed(1)} ms`);
  const results: [string, number, number | null][] = [];
  const measure = async (label: string, ms: number, target: number | null): Promise<void> => {
    results.push([label, ms, target]);
    const verdict =
      target === null ? "" : ms < target ? ` (target < ${target} ms: met)` : ` (target < ${target} ms: MISSED)`;
    console.log(`${label}: ${ms.toFixed(0)} ms, ${(ms / reference).toFixed(2)}x outcomeCounts${verdict}`);
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
