// Exports are written whole or not at all, on both store backends, and in key order (task, budget label, sample)
// whatever order the episodes were stored in: a run whose episodes are stored shuffled exports the same bytes.
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, it } from "vitest";
import { DataError, StoppedError } from "../../src/core/errors.js";
import { evaluate } from "../../src/eval/evaluate.js";
import type { Episode } from "../../src/core/episode.js";
import { shuffledIndices } from "../../src/core/rng.js";
import { readEpisodes, writeEpisodes } from "../../src/store/episodes.js";
import { exportRunJsonl } from "../../src/store/export.js";
import { openStore, withStore } from "../../src/store/open.js";
import { createRun, getRun, loadTasks } from "../../src/store/runs.js";
import { describeEachStore, type StoreBackendCase } from "../helpers/services.js";

const dir = mkdtempSync(join(tmpdir(), "budgetrl-export-"));

async function storedRun(backend: StoreBackendCase, name: string): Promise<string> {
  const db = await backend.fresh(name);
  await evaluate({ env: "sokoban", policy: "noisy-oracle:0.3", tasks: 40, samples: 4, bootstrap: 0, db, run: "r" });
  return db;
}

describeEachStore("exportRunJsonl", (backend) => {
  it("leaves an existing file byte-identical when the export fails half-way, and no temporary file behind", async () => {
    const db = await storedRun(backend, "damaged");
    const out = join(dir, `damaged-${backend.name}.jsonl`);
    writeFileSync(out, "precious earlier export\n");
    const store = await openStore(db);
    // A late episode's stored turn is no longer JSON: the export fails after writing many lines.
    await store.sql.run(
      "UPDATE turns SET observation = '{oops' WHERE task_index = 39 AND sample = 3 AND turn_index = 1",
    );
    await expect(exportRunJsonl(store, "r", out)).rejects.toThrow(DataError);
    await expect(exportRunJsonl(store, "r", out)).rejects.toThrow(
      /run "r" in .* holds a damaged episode \(after 159 readable ones\)/,
    );
    await store.close();
    expect(readFileSync(out, "utf8")).toBe("precious earlier export\n");
    expect(readdirSync(dir).filter((name) => name.includes(".tmp"))).toEqual([]);
  });

  it("replaces the file only when complete, and a stop signal leaves it as it was", async () => {
    const db = await storedRun(backend, "whole");
    const out = join(dir, `whole-${backend.name}.jsonl`);
    writeFileSync(out, "old\n");
    const store = await openStore(db, { readonly: true });
    const controller = new AbortController();
    controller.abort();
    await expect(exportRunJsonl(store, "r", out, { signal: controller.signal })).rejects.toBeInstanceOf(StoppedError);
    expect(readFileSync(out, "utf8")).toBe("old\n");
    expect(await exportRunJsonl(store, "r", out)).toBe(160);
    await store.close();
    expect(readFileSync(out, "utf8").split("\n")).toHaveLength(161);
    expect(readdirSync(dir).filter((name) => name.includes(".tmp"))).toEqual([]);
  });

  it("writes episodes in key order whatever order they were stored in: a shuffled store exports the same bytes", async () => {
    const db = await backend.fresh("ordered");
    await evaluate({
      env: "sokoban",
      policy: "noisy-oracle:0.3",
      tasks: 12,
      samples: 3,
      budgets: ["4", "50%", "100%"],
      bootstrap: 0,
      db,
      run: "r",
    });
    const original = join(dir, `ordered-${backend.name}.jsonl`);
    const { episodes, record, tasks } = await withStore(db, { mode: "read" }, async (store) => {
      await exportRunJsonl(store, "r", original);
      const run = await getRun(store, "r");
      const stored = await loadTasks(store, "r");
      const read: Episode[] = [];
      for await (const episode of readEpisodes(
        store,
        "r",
        run.env,
        new Map(stored.map((task) => [task.index, task.id])),
      ))
        read.push(episode);
      return { episodes: read, record: run, tasks: stored };
    });
    expect(episodes).toHaveLength(108);
    // The same run, its episodes stored one at a time in a shuffled order.
    const shuffled = await backend.fresh("shuffled");
    await withStore(shuffled, { mode: "create" }, async (store) => {
      await createRun(store, record, tasks);
      for (const i of shuffledIndices(episodes.length, 7)) await writeEpisodes(store, [episodes[i]!]);
    });
    const again = join(dir, `shuffled-${backend.name}.jsonl`);
    await withStore(shuffled, { mode: "read" }, (store) => exportRunJsonl(store, "r", again));
    const bytes = readFileSync(original, "utf8");
    expect(readFileSync(again, "utf8")).toBe(bytes);
    // The order is (task, budget label, sample).
    const keys = bytes
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as Episode)
      .map((episode) => [episode.taskIndex, episode.budget.label, episode.sample] as const);
    const sorted = [...keys].sort((a, b) => a[0] - b[0] || (a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0) || a[2] - b[2]);
    expect(keys).toEqual(sorted);
    expect(keys.slice(0, 4)).toEqual([
      [0, "100%", 0],
      [0, "100%", 1],
      [0, "100%", 2],
      [0, "4", 0],
    ]);
  });
});
