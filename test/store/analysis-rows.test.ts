// The SQL readers give exactly the rows that the in-memory functions compute from the same episodes, on real
// runs (noisy oracle, with policy errors and unreadable replies in the store) and on hand-built episodes whose
// answer is known, and read recovery runs; on both backends.
import { expect, it } from "vitest";
import { parseBudgetList } from "../../src/core/budget.js";
import { DataError } from "../../src/core/errors.js";
import type { Policy } from "../../src/core/policy.js";
import { evaluate } from "../../src/eval/evaluate.js";
import {
  episodeOutcomesOf,
  firstErrorCountsOf,
  horizonCountsOf,
  invalidCountsOf,
  stepCountsOf,
} from "../../src/metrics/episode-rows.js";
import { createPolicy } from "../../src/policies/spec.js";
import { readPolicySpec } from "../../src/core/policy-spec.js";
import {
  episodeOutcomes,
  firstErrorCounts,
  hasAnnotations,
  horizonCounts,
  invalidCounts,
  recoveryRows,
  stepCounts,
  taskIdsOf,
} from "../../src/store/analysis-rows.js";
import { readEpisodes, writeEpisodes } from "../../src/store/episodes.js";
import { createRun } from "../../src/store/runs.js";
import { openStore } from "../../src/store/open.js";
import { collect } from "../helpers/collect.js";
import { episode, HAND_BUDGETS } from "../helpers/episodes.js";
import { describeEachStore } from "../helpers/services.js";

const sorted = <Row>(rows: readonly Row[]): Row[] =>
  [...rows]
    .map((row) => JSON.stringify(row))
    .sort()
    .map((text) => JSON.parse(text) as Row);

/** A noisy oracle that fails (throws) on the second turn of every third sample, and answers nonsense on the
 * third turn of the second: policy errors and invalid replies in the store. */
async function flakyPolicy(): Promise<Policy> {
  const inner = await createPolicy(readPolicySpec("noisy-oracle:0.4"));
  return {
    name: "flaky",
    act: (conversation, context) => {
      if (context.sample === 2 && context.turn === 2) return Promise.reject(new Error("boom"));
      if (context.sample === 1 && context.turn === 3)
        return Promise.resolve({ message: { role: "assistant", content: "no idea" } });
      return inner.act(conversation, context);
    },
  };
}

describeEachStore("analysis rows from the store", (backend) => {
  it("match the rows computed from the same episodes in memory", async () => {
    const db = await backend.fresh("rows");
    const common = {
      tasks: 5,
      samples: 3,
      ks: [1],
      budgets: ["25%", "100%"],
      seed: 3,
      bootstrap: 0,
      db,
      now: () => new Date(0),
    };
    await evaluate({ ...common, env: "sokoban", policy: await flakyPolicy(), run: "sokoban" });
    await evaluate({
      ...common,
      env: "hanoi",
      envOptions: { randomStart: true },
      policy: "noisy-oracle:0.3",
      run: "hanoi",
    });
    await evaluate({ ...common, env: "frozenlake", policy: "random", run: "plain", annotate: false });
    const budgets = parseBudgetList("25%,100%");
    const store = await openStore(db, { readonly: true });
    try {
      for (const run of ["sokoban", "hanoi", "plain"]) {
        const episodes = await collect(readEpisodes(store, run, "x", new Map()));
        expect(episodes.some((episode) => episode.stopReason === "error")).toBe(run === "sokoban");
        expect(sorted(await stepCounts(store, run, budgets))).toEqual(sorted(stepCountsOf(episodes, budgets)));
        expect(sorted(await firstErrorCounts(store, run, budgets))).toEqual(
          sorted(firstErrorCountsOf(episodes, budgets)),
        );
        expect(sorted(await horizonCounts(store, run, budgets))).toEqual(sorted(horizonCountsOf(episodes, budgets)));
        expect(sorted(await invalidCounts(store, run, budgets))).toEqual(sorted(invalidCountsOf(episodes, budgets)));
        expect(await collect(episodeOutcomes(store, run, budgets))).toEqual(
          sorted(episodeOutcomesOf(episodes, budgets)).sort(
            (a, b) => a.taskIndex - b.taskIndex || a.budget.label.localeCompare(b.budget.label) || a.sample - b.sample,
          ),
        );
      }
      expect(await hasAnnotations(store, "hanoi")).toBe(true);
      expect(await hasAnnotations(store, "plain")).toBe(false);
      expect(await stepCounts(store, "plain", budgets)).toEqual([]);
      expect((await stepCounts(store, "hanoi", budgets)).length).toBeGreaterThan(0);
      expect((await horizonCounts(store, "hanoi", budgets)).every((row) => row.optimalLength !== null)).toBe(true);
      expect(await taskIdsOf(store, "hanoi")).toHaveLength(5);
      // The nonsense replies are there, and counted.
      expect(
        (await invalidCounts(store, "sokoban", budgets)).reduce((sum, row) => sum + row.invalid, 0),
      ).toBeGreaterThan(0);
    } finally {
      await store.close();
    }
  });

  it("read a recover:J run's episodes with whether turn J was forced", async () => {
    const db = await backend.fresh("recovery");
    const common = {
      env: "sokoban",
      tasks: 4,
      samples: 2,
      ks: [1],
      budgets: ["50%", "100%"],
      bootstrap: 0,
      db,
      now: () => new Date(0),
    };
    await evaluate({ ...common, policy: "noisy-oracle:0.2", seed: 5, run: "plain" });
    await evaluate({ ...common, policy: "noisy-oracle:0.2", seed: 5, run: "recovered", intervention: "recover:2" });
    const store = await openStore(db, { readonly: true });
    try {
      const budgets = parseBudgetList("50%,100%");
      const plain = await collect(recoveryRows(store, "plain", budgets, 2));
      expect(plain.map((row) => row.outcome)).toEqual(await collect(episodeOutcomes(store, "plain", budgets)));
      // Not an intervention run: nothing was forced at turn 2.
      expect(plain.every((row) => !row.forced)).toBe(true);
      const forced = await collect(recoveryRows(store, "recovered", budgets, 2));
      expect(forced).toHaveLength(4 * 2 * 2);
      // Forced at turn 2 exactly where the expert had not finished before it.
      expect(forced.map((row) => row.forced)).toEqual(forced.map((row) => row.outcome.turnsUsed >= 2));
      expect(forced.some((row) => row.forced)).toBe(true);
    } finally {
      await store.close();
    }
  });

  it("count invalid replies among the policy's own turns, without policy errors or forced turns", async () => {
    const db = await backend.fresh("invalid");
    const store = await openStore(db);
    try {
      const tasks = [0, 1].map((index) => ({
        index,
        id: `t${index}`,
        task: {},
        referenceBudget: 8,
        optimalTurns: null,
      }));
      await createRun(
        store,
        {
          id: "hand",
          createdAt: "2026-01-01",
          env: "hand",
          policy: "p",
          seed: 1,
          config: {},
          codeVersion: "test",
          status: "complete",
        },
        tasks,
      );
      const bad = { invalid: true };
      await writeEpisodes(
        store,
        [
          episode({ task: 0, budget: "25%", success: false, turns: [{}, bad] }),
          episode({ task: 0, budget: "25%", sample: 1, success: true, turns: [{}, {}] }),
          episode({ task: 1, budget: "25%", success: false, turns: [bad, bad, bad] }),
          episode({ task: 1, budget: "100%", success: false, turns: [bad, {}, { invalid: true, forced: true }] }),
          episode({ task: 1, budget: "100%", sample: 1, success: false, stopReason: "error", turns: [bad, bad] }),
        ].map((entry) => ({ ...entry, run: "hand" })),
      );
      const rows = (await invalidCounts(store, "hand", HAND_BUDGETS)).map((row) => [
        row.taskIndex,
        row.budget.label,
        row.invalid,
        row.turns,
      ]);
      expect(sorted(rows)).toEqual(
        sorted([
          [0, "25%", 1, 4],
          [1, "25%", 3, 3],
          [1, "100%", 1, 2],
        ]),
      );
      // Every row carries the spec its stored label names; a label the budgets given do not list is refused.
      const carried = (await invalidCounts(store, "hand", HAND_BUDGETS)).map((row) => row.budget);
      expect(carried.every((spec) => HAND_BUDGETS.includes(spec))).toBe(true);
      const refused = invalidCounts(store, "hand", parseBudgetList("25%,50%"));
      await expect(refused).rejects.toThrow(DataError);
      await expect(refused).rejects.toThrow(
        /run hand has episodes under budget "100%", which its budgets \(25%, 50%\)/,
      );
    } finally {
      await store.close();
    }
  });
});
