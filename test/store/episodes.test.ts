// The store's episode operations, the same suite on both backends (SQLite and PostgreSQL).
import { expect, it } from "vitest";
import type { Episode } from "../../src/core/episode.js";
import {
  completedEpisodeKeys,
  createEpisodeWriter,
  episodeKey,
  outcomeCounts,
  readEpisodes,
} from "../../src/store/episodes.js";
import { openStore } from "../../src/store/open.js";
import { createRun, getRun, latestRunId, listRuns, storedTaskCount } from "../../src/store/runs.js";
import { describeEachStore } from "../helpers/services.js";

function episode(
  taskIndex: number,
  sample: number,
  success: boolean,
  stopReason: Episode["stopReason"] = success ? "success" : "max_turns",
): Episode {
  return {
    run: "r",
    env: "steps",
    taskId: `t${taskIndex}`,
    taskIndex,
    budget: { turns: 3, mode: "announced", scope: "episode", label: "3" },
    sample,
    seed: 7,
    preamble: [{ role: "system", content: "rules" }],
    turns: [
      {
        index: 1,
        segment: 0,
        observation: [{ role: "user", content: "obs" }],
        action: { role: "assistant", content: "go" },
        parsedAction: "go",
        invalid: false,
        reward: 1,
        terminated: success,
        truncated: !success,
        progress: 0,
        stateKey: "k",
        optimal: true,
        remainingBefore: Infinity,
      },
    ],
    success,
    stopReason,
    stopLimit: success ? null : "episode",
    turnsUsed: 1,
    successTurn: success ? 1 : null,
    return: 1,
    initialProgress: -2,
    ...(stopReason === "error" ? { error: "boom" } : {}),
  };
}

async function all<T>(items: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of items) out.push(item);
  return out;
}

describeEachStore("run store", (backend) => {
  it("writes each episode once, replaces policy-error attempts, and counts outcomes", async () => {
    const store = await openStore(await backend.fresh());
    try {
      await createRun(
        store,
        {
          id: "r",
          createdAt: "2026-01-01",
          env: "steps",
          policy: "p",
          seed: 7,
          config: { x: 1 },
          codeVersion: "test",
          status: "running",
        },
        [{ index: 0, id: "t0", task: {}, referenceBudget: 3, optimalTurns: null }],
      );
      const writer = createEpisodeWriter(store, { batchSize: 2 });
      await writer.write(episode(0, 0, true));
      await writer.write(episode(0, 0, false));
      await writer.write(episode(0, 1, false, "error"));
      await writer.flush();
      expect(writer.written()).toBe(2);
      expect(await completedEpisodeKeys(store, "r")).toEqual(new Set([episodeKey(0, "3", 0)]));
      expect(await outcomeCounts(store, "r")).toEqual([{ taskIndex: 0, budget: "3", n: 1, c: 1 }]);
      await writer.write(episode(0, 1, false));
      await writer.flush();
      expect(await outcomeCounts(store, "r")).toEqual([{ taskIndex: 0, budget: "3", n: 2, c: 1 }]);
      const read = await all(readEpisodes(store, "r", "steps", new Map([[0, "t0"]])));
      expect(read).toHaveLength(2);
      expect(read[0]?.turns[0]).toMatchObject({
        parsedAction: "go",
        optimal: true,
        observation: [{ role: "user", content: "obs" }],
      });
      expect(read[0]?.turns[0]?.remainingBefore).toBeUndefined();
      expect(read[1]?.turns).toHaveLength(1);
      expect((await listRuns(store))[0]).toMatchObject({ id: "r", episodes: 2, successes: 1, errors: 0 });
      await expect(createRun(store, { ...(await getRun(store, "r")) }, [])).rejects.toThrow(/already exists/);
      await expect(getRun(store, "nope")).rejects.toThrow(/no run "nope"[\s\S]*runs here: r/);
    } finally {
      await store.close();
    }
  });

  it("keeps numbers exact (doubles, 32-bit seeds), labels in byte order, and reads a large run back a page at a time", async () => {
    const store = await openStore(await backend.fresh());
    try {
      const tasks = Array.from({ length: 3 }, (_, index) => ({
        index,
        id: `t${index}`,
        task: { index },
        referenceBudget: 8,
        optimalTurns: null,
      }));
      await createRun(
        store,
        {
          id: "big",
          createdAt: "2026-01-02",
          env: "steps",
          policy: "p",
          seed: 4294967295,
          config: {},
          codeVersion: "test",
          status: "running",
        },
        tasks,
      );
      await createRun(
        store,
        {
          id: "later",
          createdAt: "2026-01-03",
          env: "steps",
          policy: "p",
          seed: 1,
          config: {},
          codeVersion: "test",
          status: "running",
        },
        [],
      );
      expect(await latestRunId(store)).toBe("later");
      expect(await storedTaskCount(store, "big")).toBe(3);
      const labels = ["100%", "25%", "8", "T"];
      const written: Episode[] = [];
      for (let task = 0; task < 3; task++) {
        for (const label of labels) {
          for (let sample = 0; sample < 90; sample++) {
            const base = episode(task, sample, sample % 3 === 0);
            written.push({
              ...base,
              run: "big",
              taskId: `t${task}`,
              seed: 4294967295 - sample,
              return: 0.1 + sample / 7,
              initialProgress: -1 / 3,
              budget: { ...base.budget, label },
              turns: base.turns.map((turn) => ({
                ...turn,
                remainingBefore: 2.5,
                valueBefore: 1 / 3,
                reward: -0.1 * (sample + 1),
              })),
            });
          }
        }
      }
      const writer = createEpisodeWriter(store);
      for (const item of [...written].reverse()) await writer.write(item);
      await writer.flush();
      expect(writer.written()).toBe(written.length);
      const read = await all(readEpisodes(store, "big", "steps", new Map(tasks.map((task) => [task.index, task.id]))));
      expect(read).toHaveLength(written.length);
      // Key order: task, then label in byte order, then sample; every field as written.
      expect(read).toEqual(
        [...written].sort(
          (a, b) =>
            a.taskIndex - b.taskIndex ||
            (a.budget.label < b.budget.label ? -1 : a.budget.label > b.budget.label ? 1 : 0) ||
            a.sample - b.sample,
        ),
      );
      // A second delivery of the same episodes changes nothing.
      const again = createEpisodeWriter(store);
      for (const item of written.slice(0, 10)) await again.write(item);
      await again.flush();
      expect(again.written()).toBe(0);
    } finally {
      await store.close();
    }
  });
});
