// The SQL readers give exactly the rows that the in-memory functions compute from the same episodes, on real
// runs (noisy oracle, with policy errors in the store), and pair a perturbed run with its control; on both backends.
import { expect, it } from "vitest";
import type { Policy } from "../../src/core/policy.js";
import { evaluate } from "../../src/eval/evaluate.js";
import { episodeOutcomesOf, firstErrorCountsOf, horizonCountsOf, stepCountsOf } from "../../src/metrics/episode-rows.js";
import { pairPerturbedEpisodes } from "../../src/metrics/perturbation-recovery.js";
import { createPolicy } from "../../src/policies/spec.js";
import { episodeOutcomes, firstErrorCounts, hasAnnotations, horizonCounts, perturbationPairRows, stepCounts, taskIdsOf, taskListsMatch } from "../../src/store/analysis-rows.js";
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

  it("join a perturbed run with its control on (task, budget, sample), like the in-memory pairing", async () => {
    const db = await backend.fresh("pairs");
    const common = { env: "sokoban", tasks: 4, samples: 2, ks: [1], budgets: ["50%", "100%"], bootstrap: 0, db, now: () => new Date(0) };
    await evaluate({ ...common, policy: "noisy-oracle:0.2", seed: 5, run: "control" });
    // Stand-ins for a perturbed run: the same seed (tasks and episode seeds pair), and another seed (they do not).
    await evaluate({ ...common, policy: "noisy-oracle:0.5", seed: 5, samples: 3, run: "same-seed" });
    await evaluate({ ...common, policy: "noisy-oracle:0.5", seed: 6, run: "other-seed" });
    await evaluate({ ...common, policy: "noisy-oracle:0.2", seed: 5, run: "perturbed", intervention: "perturb:2" });
    const store = await openStore(db, { readonly: true });
    try {
      expect(await taskListsMatch(store, "control", "same-seed")).toBe(true);
      expect(await taskListsMatch(store, "control", "other-seed")).toBe(false);
      const joined = await collect(perturbationPairRows(store, "same-seed", "control", 2));
      const inMemory = pairPerturbedEpisodes(await collect(episodeOutcomes(store, "same-seed")), await collect(episodeOutcomes(store, "control")), 2).map(({ perturbed, control }) => ({ perturbed, control }));
      expect(joined.map(({ perturbed, control }) => ({ perturbed, control }))).toEqual(inMemory);
      // Not an intervention run: nothing was forced at turn 2.
      expect(joined.every((pair) => !pair.forced)).toBe(true);
      expect(joined).toHaveLength(4 * 2 * 3);
      // Samples 0 and 1 pair with equal seeds; sample 2 has no control.
      expect(joined.filter((pair) => pair.control !== null && pair.control.seed === pair.perturbed.seed)).toHaveLength(16);
      expect(joined.filter((pair) => pair.control === null)).toHaveLength(8);
      // A real perturbed run: forced at turn 2 exactly where the episode reached it.
      const forced = await collect(perturbationPairRows(store, "perturbed", "control", 2));
      expect(forced.length).toBe(16);
      expect(forced.map((pair) => pair.forced)).toEqual(forced.map((pair) => pair.perturbed.turnsUsed >= 2));
    } finally {
      await store.close();
    }
  });
});
