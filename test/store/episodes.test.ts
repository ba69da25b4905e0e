import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { Episode } from "../../src/core/episode.js";
import { completedEpisodeKeys, createEpisodeWriter, episodeKey, outcomeCounts, readEpisodes } from "../../src/store/episodes.js";
import { openStore } from "../../src/store/open.js";
import { createRun, getRun, listRuns } from "../../src/store/runs.js";

const dir = mkdtempSync(join(tmpdir(), "budgetrl-store-"));

function episode(taskIndex: number, sample: number, success: boolean, stopReason: Episode["stopReason"] = success ? "success" : "max_turns"): Episode {
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
      { index: 1, segment: 0, observation: [{ role: "user", content: "obs" }], action: { role: "assistant", content: "go" }, parsedAction: "go", invalid: false, reward: 1, terminated: success, truncated: !success, progress: 0, stateKey: "k", optimal: true, remainingBefore: Infinity },
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

describe("run store", () => {
  it("writes each episode once, replaces policy-error attempts, and counts outcomes", () => {
    const store = openStore(join(dir, "a.db"));
    createRun(store, { id: "r", createdAt: "2026-01-01", env: "steps", policy: "p", seed: 7, config: { x: 1 }, codeVersion: "test", status: "running" }, [{ index: 0, id: "t0", task: {}, referenceBudget: 3 }]);
    const writer = createEpisodeWriter(store, { batchSize: 2 });
    writer.write(episode(0, 0, true));
    writer.write(episode(0, 0, false));
    writer.write(episode(0, 1, false, "error"));
    writer.flush();
    expect(writer.written()).toBe(2);
    expect(completedEpisodeKeys(store, "r")).toEqual(new Set([episodeKey(0, "3", 0)]));
    expect(outcomeCounts(store, "r")).toEqual([{ taskIndex: 0, budget: "3", n: 1, c: 1 }]);
    writer.write(episode(0, 1, false));
    writer.flush();
    expect(outcomeCounts(store, "r")).toEqual([{ taskIndex: 0, budget: "3", n: 2, c: 1 }]);
    const read = [...readEpisodes(store, "r", "steps", new Map([[0, "t0"]]))];
    expect(read).toHaveLength(2);
    expect(read[0]?.turns[0]).toMatchObject({ parsedAction: "go", optimal: true, observation: [{ role: "user", content: "obs" }] });
    expect(read[0]?.turns[0]?.remainingBefore).toBeUndefined();
    expect(listRuns(store)[0]).toMatchObject({ id: "r", episodes: 2, successes: 1, errors: 0 });
    expect(() => createRun(store, { ...getRun(store, "r") }, [])).toThrow(/already exists/);
    expect(() => getRun(store, "nope")).toThrow(/no run "nope"[\s\S]*runs here: r/);
    store.close();
  });
});
