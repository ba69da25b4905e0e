// The SQL readers give exactly the rows that the in-memory functions compute from the same episodes, on real
// runs (noisy oracle, with policy errors in the store), and read recovery runs; on both backends.
import { expect, it } from "vitest";
import type { Policy } from "../../src/core/policy.js";
import { evaluate } from "../../src/eval/evaluate.js";
import { episodeOutcomesOf, firstErrorCountsOf, horizonCountsOf, stepCountsOf } from "../../src/metrics/episode-rows.js";
import { createPolicy } from "../../src/policies/spec.js";
import { episodeOutcomes, firstErrorCounts, hasAnnotations, horizonCounts, recoveryRows, stepCounts, taskIdsOf } from "../../src/store/analysis-rows.js";
import { readEpisodes } from "../../src/store/episodes.js";
import { openStore } from "../../src/store/open.js";
import { collect } from "../helpers/collect.js";
import { describeEachStore } from "../helpers/services.js";

const sorted = <Row>(rows: readonly Row[]): Row[] => [...rows].map((row) => JSON.stringify(row)).sort().map((text) => JSON.parse(text) as Row);

/** A noisy oracle that fails (throws) on the second turn of every third sample: policy errors in the store. */
async function flakyPolicy(): Promise<Policy> {
  const inner = await createPolicy("noisy-oracle:0.4");
  return { name: "flaky", act: (conversation, context) => (context.sample === 2 && context.turn === 2 ? Promise.reject(new Error("boom")) : inner.act(conversation, context)) };
}

describeEachStore("analysis rows from the store", (backend) => {
  it("match the rows computed from the same episodes in memory", async () => {
    const db = await backend.fresh("rows");
    const common = { tasks: 5, samples: 3, ks: [1], budgets: ["25%", "100%"], seed: 3, bootstrap: 0, db, now: () => new Date(0) };
    await evaluate({ ...common, env: "sokoban", policy: await flakyPolicy(), run: "sokoban" });
    await evaluate({ ...common, env: "hanoi", envOptions: { randomStart: true }, policy: "noisy-oracle:0.3", run: "hanoi" });
    await evaluate({ ...common, env: "frozenlake", policy: "random", run: "plain", annotate: false });
    const store = await openStore(db, { readonly: true });
    try {
      for (const run of ["sokoban", "hanoi", "plain"]) {
        const episodes = await collect(readEpisodes(store, run, "x", new Map()));
        expect(episodes.some((episode) => episode.stopReason === "error")).toBe(run === "sokoban");
        expect(sorted(await stepCounts(store, run))).toEqual(sorted(stepCountsOf(episodes)));
        expect(sorted(await firstErrorCounts(store, run))).toEqual(sorted(firstErrorCountsOf(episodes)));
        expect(sorted(await horizonCounts(store, run))).toEqual(sorted(horizonCountsOf(episodes)));
        expect(await collect(episodeOutcomes(store, run))).toEqual(sorted(episodeOutcomesOf(episodes)).sort((a, b) => a.taskIndex - b.taskIndex || a.budget.localeCompare(b.budget) || a.sample - b.sample));
      }
      expect(await hasAnnotations(store, "hanoi")).toBe(true);
      expect(await hasAnnotations(store, "plain")).toBe(false);
      expect(await stepCounts(store, "plain")).toEqual([]);
      expect((await stepCounts(store, "hanoi")).length).toBeGreaterThan(0);
      expect((await horizonCounts(store, "hanoi")).every((row) => row.optimalLength !== null)).toBe(true);
      expect(await taskIdsOf(store, "hanoi")).toHaveLength(5);
    } finally {
      await store.close();
    }
  });

  it("read a recover:J run's episodes with whether turn J was forced", async () => {
    const db = await backend.fresh("recovery");
    const common = { env: "sokoban", tasks: 4, samples: 2, ks: [1], budgets: ["50%", "100%"], bootstrap: 0, db, now: () => new Date(0) };
    await evaluate({ ...common, policy: "noisy-oracle:0.2", seed: 5, run: "plain" });
    await evaluate({ ...common, policy: "noisy-oracle:0.2", seed: 5, run: "recovered", intervention: "recover:2" });
    const store = await openStore(db, { readonly: true });
    try {
      const plain = await collect(recoveryRows(store, "plain", 2));
      expect(plain.map((row) => row.outcome)).toEqual(await collect(episodeOutcomes(store, "plain")));
      // Not an intervention run: nothing was forced at turn 2.
      expect(plain.every((row) => !row.forced)).toBe(true);
      const forced = await collect(recoveryRows(store, "recovered", 2));
      expect(forced).toHaveLength(4 * 2 * 2);
      // Forced at turn 2 exactly where the expert had not finished before it.
      expect(forced.map((row) => row.forced)).toEqual(forced.map((row) => row.outcome.turnsUsed >= 2));
      expect(forced.some((row) => row.forced)).toBe(true);
    } finally {
      await store.close();
    }
  });
});
