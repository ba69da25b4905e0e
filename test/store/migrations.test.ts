// Columns added within schema version 1 (value_before, forced, ...): stored, read back, exported, and added to
// stores made before them when those are opened for writing.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { Episode } from "../../src/core/episode.js";
import { createEpisodeWriter, readEpisodes } from "../../src/store/episodes.js";
import { episodeToJsonLine } from "../../src/store/export.js";
import { openStore } from "../../src/store/open.js";
import { createRun } from "../../src/store/runs.js";

const dir = mkdtempSync(join(tmpdir(), "budgetrl-open-"));

function episode(sample: number, valueBefore?: number): Episode {
  const turn = { index: 1, segment: 0, observation: [], action: { role: "assistant" as const, content: "go" }, parsedAction: "go", invalid: false, reward: 1, terminated: true, truncated: false, progress: 1, stateKey: "k", optimal: true, remainingBefore: 1 };
  return {
    run: "r", env: "steps", taskId: "t0", taskIndex: 0, budget: { turns: 3, mode: "hidden", scope: "episode", label: "3" }, sample, seed: sample, preamble: [],
    turns: [valueBefore === undefined ? turn : { ...turn, valueBefore }],
    success: true, stopReason: "success", stopLimit: null, turnsUsed: 1, successTurn: 1, return: 1, initialProgress: 0.5,
  };
}

const columns = (path: string): string[] => {
  const store = openStore(path, { readonly: true });
  const names = (store.db.prepare("PRAGMA table_info(turns)").all() as { name: string }[]).map((column) => column.name);
  store.close();
  return names;
};

describe("openStore", () => {
  it("stores the value-before annotation, reads it back, and exports it", () => {
    const path = join(dir, "new.db");
    const store = openStore(path);
    createRun(store, { id: "r", createdAt: "2026-01-01", env: "steps", policy: "p", seed: 1, config: {}, codeVersion: "test", status: "complete" }, [{ index: 0, id: "t0", task: {}, referenceBudget: 3 }]);
    const writer = createEpisodeWriter(store);
    writer.write(episode(0, 0.25));
    writer.write(episode(1));
    writer.flush();
    const [annotated, plain] = [...readEpisodes(store, "r", "steps", new Map([[0, "t0"]]))];
    expect(annotated!.turns[0]!.valueBefore).toBe(0.25);
    expect(plain!.turns[0]!.valueBefore).toBeUndefined();
    expect(episodeToJsonLine(annotated!)).toContain('"remainingBefore":1,"valueBefore":0.25');
    store.close();
  });

  it("reads stores made before the value_before column, and adds the column when opened for writing", () => {
    const path = join(dir, "old.db");
    const store = openStore(path);
    createRun(store, { id: "r", createdAt: "2026-01-01", env: "steps", policy: "p", seed: 1, config: {}, codeVersion: "test", status: "complete" }, [{ index: 0, id: "t0", task: {}, referenceBudget: 3 }]);
    const writer = createEpisodeWriter(store);
    writer.write(episode(0, 0.25));
    writer.flush();
    store.db.exec("ALTER TABLE turns DROP COLUMN value_before");
    store.close();
    expect(columns(path)).not.toContain("value_before");
    const old = openStore(path, { readonly: true });
    const [read] = [...readEpisodes(old, "r", "steps", new Map([[0, "t0"]]))];
    expect(read!.turns[0]).toMatchObject({ optimal: true, remainingBefore: 1 });
    expect(read!.turns[0]!.valueBefore).toBeUndefined();
    old.close();
    const reopened = openStore(path);
    expect(columns(path)).toContain("value_before");
    const again = createEpisodeWriter(reopened);
    again.write(episode(1, 0.5));
    again.flush();
    expect([...readEpisodes(reopened, "r", "steps", new Map([[0, "t0"]]))].map((e) => e.turns[0]!.valueBefore)).toEqual([undefined, 0.5]);
    reopened.close();
  });
});
