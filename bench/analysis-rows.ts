// The study analyses' store readers on a large run: 1,000,000 stored episodes (1,000 tasks x 4 budgets x 250
// samples) with their turns (about 6 per episode, oracle-annotated), each reader timed next to the reference
// measured in the same run: outcomeCounts, the query behind every Pass@(K,T) table. Then the analyses on the
// rows they return.
// Run: npx tsx bench/analysis-rows.ts [--stored N]
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { parseBudgetList } from "../src/core/budget.js";
import { horizon } from "../src/metrics/horizon.js";
import { naturalRecovery } from "../src/metrics/natural-recovery.js";
import { stepQuality } from "../src/metrics/step-quality.js";
import { episodeOutcomes, firstErrorCounts, horizonCounts, stepCounts } from "../src/store/analysis-rows.js";
import { outcomeCounts } from "../src/store/episodes.js";
import { openSqliteStore, type SqliteStore } from "../src/store/sqlite/open.js";

const { values } = parseArgs({ options: { stored: { type: "string", default: "1000000" } } });
const stored = Number(values.stored);
const TASKS = 1000;
const BUDGETS = [
  ["25%", 6],
  ["50%", 12],
  ["75%", 18],
  ["100%", 24],
] as const;
const SPECS = parseBudgetList(BUDGETS.map(([label]) => label).join(","));

function fill(store: SqliteStore): number {
  const samples = Math.ceil(stored / (TASKS * BUDGETS.length));
  const episode = store.db.prepare(
    `INSERT INTO episodes (run_id, task_index, budget_label, sample, seed, budget_turns, budget_mode, budget_scope, success, stop_reason, stop_limit, turns_used, success_turn, return, initial_progress, error, preamble)
     VALUES ('bench', ?, ?, ?, ?, ?, 'announced', 'episode', ?, ?, NULL, ?, NULL, 0, 0, NULL, '[]')`,
  );
  const turn = store.db.prepare(
    `INSERT INTO turns (run_id, task_index, budget_label, sample, turn_index, segment, observation, action, parsed_action, invalid, reward, terminated, truncated, progress, state_key, optimal, remaining_before, details)
     VALUES ('bench', ?, ?, ?, ?, 0, '[]', '{}', 'Up', 0, 0, 0, 0, 0, '', ?, ?, NULL)`,
  );
  let state = 12345;
  const random = (): number => (state = (Math.imul(state, 1103515245) + 12345) >>> 0) / 4294967296;
  let turns = 0;
  store.db.transaction(() => {
    for (let task = 0; task < TASKS; task++) {
      const length = 3 + (task % 6);
      for (const [label, budgetTurns] of BUDGETS) {
        for (let sample = 0; sample < samples; sample++) {
          const used = Math.min(budgetTurns, length + Math.floor(random() * 4));
          const success = random() < 0.6;
          episode.run(
            task,
            label,
            sample,
            sample,
            budgetTurns,
            success ? 1 : 0,
            success ? "success" : "max_turns",
            used,
          );
          for (let index = 1; index <= used; index++)
            turn.run(task, label, sample, index, random() < 0.8 ? 1 : 0, index === 1 ? length : length - index + 1);
          turns += used;
        }
      }
    }
  })();
  return turns;
}

async function timed<T>(
  label: string,
  run: () => T | Promise<T>,
  reference?: number,
): Promise<{ result: T; seconds: number }> {
  const start = performance.now();
  const result = await run();
  const seconds = (performance.now() - start) / 1000;
  console.log(
    `${label}: ${seconds.toFixed(2)} s${reference === undefined ? "" : ` (${(seconds / reference).toFixed(1)}x outcomeCounts)`}`,
  );
  return { result, seconds };
}

const dir = mkdtempSync(join(tmpdir(), "budgetrl-bench-analysis-"));
try {
  const store = openSqliteStore(join(dir, "bench.db"), { mode: "create", busyTimeoutMs: 10_000 });
  const fillStart = performance.now();
  const turns = fill(store);
  console.log(
    `stored ${stored.toLocaleString("en-US")} episodes, ${turns.toLocaleString("en-US")} turns in ${((performance.now() - fillStart) / 1000).toFixed(1)} s`,
  );
  const reference = (
    await timed("outcomeCounts (reference, the Pass@(K,T) reader)", () => outcomeCounts(store, "bench"))
  ).seconds;
  const steps = (await timed("stepCounts", () => stepCounts(store, "bench", SPECS), reference)).result;
  const errors = (await timed("firstErrorCounts", () => firstErrorCounts(store, "bench", SPECS), reference)).result;
  const lengths = (await timed("horizonCounts", () => horizonCounts(store, "bench", SPECS), reference)).result;
  await timed(
    "episodeOutcomes (streamed, counted)",
    async () => {
      let count = 0;
      for await (const _ of episodeOutcomes(store, "bench", SPECS)) count++;
      return count;
    },
    reference,
  );
  await timed(
    `stepQuality on ${steps.length.toLocaleString("en-US")} rows (1000 resamples)`,
    () => stepQuality(steps, { bootstrap: 1000, seed: 1 }),
    reference,
  );
  await timed(
    `naturalRecovery on ${errors.length.toLocaleString("en-US")} rows`,
    () => naturalRecovery(errors, { bootstrap: 1000, seed: 1 }),
    reference,
  );
  await timed(
    `horizon on ${lengths.length.toLocaleString("en-US")} rows`,
    () => horizon(lengths, { bootstrap: 1000, seed: 1 }),
    reference,
  );
  await store.close();
} finally {
  rmSync(dir, { recursive: true, force: true });
}
