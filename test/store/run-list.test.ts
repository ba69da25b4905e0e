// The view's runs list on both store backends: every run newest first from the runs table alone; the outcomes of a
// page of runs in one pass equal each run's own Pass@(K,T) input (outcomeCounts) and policy-error count; a task's
// head (id, reference budget, optimal length) without the task.
import { expect, it } from "vitest";
import { evaluate } from "../../src/eval/evaluate.js";
import { episodeTotals, outcomeCounts, readEpisodes, writeEpisodes } from "../../src/store/episodes.js";
import { openStore } from "../../src/store/open.js";
import { runOutcomeCounts, runRecords } from "../../src/store/run-list.js";
import { loadTasks, taskHeads } from "../../src/store/runs.js";
import { collect } from "../helpers/collect.js";
import { describeEachStore } from "../helpers/services.js";

const byKey = <T extends { taskIndex: number; budget: string }>(rows: readonly T[]): T[] =>
  [...rows].sort((a, b) => a.taskIndex - b.taskIndex || (a.budget < b.budget ? -1 : a.budget > b.budget ? 1 : 0));

describeEachStore("the runs list", (backend) => {
  it("lists runs newest first and reads a page of runs' outcomes in one pass, policy errors counted apart", async () => {
    const db = await backend.fresh("run-list");
    const runs = ["first", "second", "third"];
    for (const [at, run] of runs.entries())
      await evaluate({
        env: "frozenlake",
        policy: `noisy-oracle:0.${at + 2}`,
        tasks: 4,
        samples: 2,
        budgets: ["50%", "100%"],
        bootstrap: 0,
        db,
        run,
        now: () => new Date(`2026-03-0${at + 1}T00:00:00Z`),
      });
    const store = await openStore(db, { mode: "write" });
    const [episode] = await collect(readEpisodes(store, "second", "frozenlake", new Map()));
    await writeEpisodes(store, [{ ...episode!, sample: 5, success: false, stopReason: "error", error: "lost" }]);
    await store.close();
    const reader = await openStore(db, { mode: "read" });
    try {
      expect((await runRecords(reader)).map((record) => record.id)).toEqual(["third", "second", "first"]);
      const found = await runOutcomeCounts(reader, [...runs, "missing"]);
      for (const run of runs) {
        expect(byKey(found.get(run)!.counts)).toEqual(byKey(await outcomeCounts(reader, run)));
        expect(found.get(run)!.errors).toBe((await episodeTotals(reader, run)).errors);
      }
      expect(found.get("second")!.errors).toBe(1);
      expect(found.get("missing")).toEqual({ counts: [], errors: 0 });
      expect(await runOutcomeCounts(reader, [])).toEqual(new Map());
      expect(await taskHeads(reader, "first")).toEqual(
        (await loadTasks(reader, "first")).map(({ index, id, referenceBudget, optimalTurns }) => ({
          index,
          id,
          referenceBudget,
          optimalTurns,
        })),
      );
    } finally {
      await reader.close();
    }
  });
});
