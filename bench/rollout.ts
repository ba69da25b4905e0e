// Rollout and metrics throughput, with the targets side by side:
//   1. sokoban env steps per second with the oracle policy, through the full rollout engine (target >= 200,000/s
//      on one core), next to the bare env (step + oracle, no engine) measured in the same run as the reference;
//      also as `evaluate` runs it: many episodes (runEpisodes) with every policy call guarded by a stop signal and a
//      turn timeout (agent/policy-call.ts);
//   2. the time to compute the full Pass@(K,T) table (with bootstrap intervals) for 1,000,000 stored episodes
//      (target < 2 s), from the SQLite store as `budgetrl show` does.
// Run: npx tsx bench/rollout.ts [--episodes N] [--stored N]
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { runEpisode } from "../src/agent/rollout.js";
import { runEpisodes } from "../src/agent/run-episodes.js";
import { parseBudgetList, type Budget } from "../src/core/budget.js";
import { sokoban } from "../src/envs/sokoban/index.js";
import { oraclePolicy } from "../src/policies/scripted/oracle.js";
import { tableFor } from "../src/eval/table.js";
import { outcomeCounts } from "../src/store/episodes.js";
import { openSqliteStore } from "../src/store/sqlite/open.js";

const { values } = parseArgs({
  options: { episodes: { type: "string", default: "20000" }, stored: { type: "string", default: "1000000" } },
});
const episodes = Number(values.episodes);
const storedEpisodes = Number(values.stored);

async function rolloutThroughput(): Promise<void> {
  const env = sokoban();
  const tasks = Array.from({ length: 200 }, (_, i) => env.tasks.generate(i));
  for (const task of tasks) env.oracle!.answer(env.reset(task, { seed: 0 }).state); // warm the per-task oracle tables
  const budget: Budget = { turns: 1000, mode: "announced", scope: "episode", label: "100%" };
  const policy = oraclePolicy();

  // Reference: the bare env driven by its oracle, no engine, no policy, no records.
  let bareRate = 0;
  let start = 0;
  for (let round = 0; round < 2; round++) {
    let bareSteps = 0;
    start = performance.now();
    for (let e = 0; e < episodes; e++) {
      const task = tasks[e % tasks.length]!;
      let { state } = env.reset(task, { seed: e });
      for (;;) {
        const action = env.oracle!.answer(state).optimal[0] ?? "Up";
        const result = env.step(state, { role: "assistant", content: action });
        bareSteps++;
        state = result.state;
        if (result.terminated) break;
      }
    }
    bareRate = Math.max(bareRate, bareSteps / ((performance.now() - start) / 1000));
  }

  // Each configuration runs twice (the first pass also warms the JIT); the best pass counts.
  for (const annotate of [false, true]) {
    let best = 0;
    for (let round = 0; round < 2; round++) {
      let steps = 0;
      start = performance.now();
      for (let e = 0; e < episodes; e++) {
        const episode = await runEpisode(
          env,
          policy,
          { run: "bench", task: tasks[e % tasks.length]!, taskId: "t", taskIndex: 0, budget, sample: e, seed: e },
          { annotate },
        );
        steps += episode.turnsUsed;
      }
      best = Math.max(best, steps / ((performance.now() - start) / 1000));
    }
    console.log(
      `rollout engine, oracle policy${annotate ? ", oracle annotations" : ""}: ${Math.round(best).toLocaleString("en-US")} env steps/s (${(best / 200_000).toFixed(2)}x the 200,000/s target; ${(best / bareRate).toFixed(2)}x the bare env)`,
    );
  }

  // As evaluate plays a run: a planned set of episodes, every policy call guarded (stop signal, turn timeout).
  let guardedBest = 0;
  const specs = parseBudgetList("1000");
  for (let round = 0; round < 2; round++) {
    let steps = 0;
    start = performance.now();
    await runEpisodes(env, policy, {
      run: "bench",
      seed: 1,
      tasks,
      budgets: specs,
      mode: "announced",
      samples: Math.max(1, Math.round(episodes / tasks.length)),
      rollout: { annotate: false },
      signal: new AbortController().signal,
      turnTimeout: 600,
      onEpisode: (episode) => void (steps += episode.turnsUsed),
    });
    guardedBest = Math.max(guardedBest, steps / ((performance.now() - start) / 1000));
  }
  console.log(
    `rollout engine as evaluate runs it (runEpisodes, guarded calls: stop signal + turn timeout): ${Math.round(guardedBest).toLocaleString("en-US")} env steps/s (${(guardedBest / 200_000).toFixed(2)}x the target; ${(guardedBest / bareRate).toFixed(2)}x the bare env)`,
  );
  console.log(`bare env (step + oracle, no engine): ${Math.round(bareRate).toLocaleString("en-US")} steps/s`);
}

async function tableTime(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), "budgetrl-bench-"));
  const store = openSqliteStore(join(dir, "bench.db"), { mode: "create", busyTimeoutMs: 10_000 });
  const tasks = 1000;
  const budgets = ["25%", "50%", "75%", "100%"];
  const samples = Math.ceil(storedEpisodes / (tasks * budgets.length));
  const insert = store.db.prepare(
    `INSERT INTO episodes (run_id, task_index, budget_label, sample, seed, budget_turns, budget_mode, budget_scope, success, stop_reason, stop_limit, turns_used, success_turn, return, initial_progress, error, preamble)
     VALUES ('bench', ?, ?, ?, 0, 10, 'announced', 'episode', ?, ?, NULL, 5, NULL, 0, 0, NULL, '[]')`,
  );
  let state = 12345;
  const random = (): number => (state = (Math.imul(state, 1103515245) + 12345) >>> 0) / 4294967296;
  let start = performance.now();
  store.db.transaction(() => {
    for (let task = 0; task < tasks; task++) {
      const skill = random();
      budgets.forEach((label, b) => {
        for (let sample = 0; sample < samples; sample++) {
          const success = random() < skill * ((b + 1) / budgets.length) ? 1 : 0;
          insert.run(task, label, sample, success, success === 1 ? "success" : "max_turns");
        }
      });
    }
  })();
  const total = tasks * budgets.length * samples;
  console.log(
    `(setup: ${total.toLocaleString("en-US")} episodes stored in ${((performance.now() - start) / 1000).toFixed(1)} s)`,
  );
  const config = {
    protocol: "separate" as const,
    budgets: parseBudgetList(budgets.join(",")),
    ks: [1, 2, 4, 8, 16, 32, 64, 128, 250].filter((k) => k <= samples),
    bootstrap: 1000,
    seed: 1,
  };
  start = performance.now();
  const counts = await outcomeCounts(store, "bench");
  const table = tableFor(config, { counts, firstSuccesses: [], bases: new Map() });
  const seconds = (performance.now() - start) / 1000;
  console.log(
    `Pass@(K,T) table for ${total.toLocaleString("en-US")} stored episodes (${table.ks.length} K x ${table.budgets.length} T, 1000 bootstrap resamples): ${seconds.toFixed(2)} s (target < 2 s: ${(2 / seconds).toFixed(1)}x headroom)`,
  );
  await store.close();
  rmSync(dir, { recursive: true, force: true });
}

await rolloutThroughput();
await tableTime();
