// Columns added within schema version 1 (value_before, forced, ...): stored, read back, exported, and added to
// stores made before them when those are opened for writing; on both backends.
import { expect, it } from "vitest";
import type { Episode } from "../../src/core/episode.js";
import { createEpisodeWriter, readEpisodes } from "../../src/store/episodes.js";
import { episodeToJsonLine } from "../../src/store/export.js";
import { openStore, type Store } from "../../src/store/open.js";
import { createRun } from "../../src/store/runs.js";
import { collect } from "../helpers/collect.js";
import { describeEachStore } from "../helpers/services.js";

function episode(sample: number, valueBefore?: number): Episode {
  const turn = {
    index: 1,
    segment: 0,
    observation: [],
    action: { role: "assistant" as const, content: "go" },
    parsedAction: "go",
    invalid: false,
    reward: 1,
    terminated: true,
    truncated: false,
    progress: 1,
    stateKey: "k",
    optimal: true,
    remainingBefore: 1,
  };
  return {
    run: "r",
    env: "steps",
    taskId: "t0",
    taskIndex: 0,
    budget: { turns: 3, mode: "hidden", scope: "episode", label: "3" },
    sample,
    seed: sample,
    preamble: [],
    turns: [valueBefore === undefined ? turn : { ...turn, valueBefore }],
    success: true,
    stopReason: "success",
    stopLimit: null,
    turnsUsed: 1,
    successTurn: 1,
    return: 1,
    initialProgress: 0.5,
  };
}

async function columnsOf(store: Store): Promise<string[]> {
  const text =
    store.backend === "sqlite"
      ? "SELECT name FROM pragma_table_info('turns')"
      : "SELECT column_name FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = 'turns'";
  return (await store.sql.rows<[string]>(text)).map(([name]) => name);
}

async function columns(path: string): Promise<string[]> {
  const store = await openStore(path, { readonly: true });
  try {
    return await columnsOf(store);
  } finally {
    await store.close();
  }
}

describeEachStore("openStore", (backend) => {
  it("stores the value-before annotation, reads it back, and exports it", async () => {
    const path = await backend.fresh("new");
    const store = await openStore(path);
    await createRun(
      store,
      {
        id: "r",
        createdAt: "2026-01-01",
        env: "steps",
        policy: "p",
        seed: 1,
        config: {},
        codeVersion: "test",
        status: "complete",
      },
      [{ index: 0, id: "t0", task: {}, referenceBudget: 3, optimalTurns: null }],
    );
    const writer = createEpisodeWriter(store);
    await writer.write(episode(0, 0.25));
    await writer.write(episode(1));
    await writer.flush();
    const [annotated, plain] = await collect(readEpisodes(store, "r", "steps", new Map([[0, "t0"]])));
    expect(annotated!.turns[0]!.valueBefore).toBe(0.25);
    expect(plain!.turns[0]!.valueBefore).toBeUndefined();
    expect(episodeToJsonLine(annotated!)).toContain('"remainingBefore":1,"valueBefore":0.25');
    await store.close();
  });

  it("reads stores made before the value_before column, and adds the column when opened for writing", async () => {
    const path = await backend.fresh("old");
    const store = await openStore(path);
    await createRun(
      store,
      {
        id: "r",
        createdAt: "2026-01-01",
        env: "steps",
        policy: "p",
        seed: 1,
        config: {},
        codeVersion: "test",
        status: "complete",
      },
      [{ index: 0, id: "t0", task: {}, referenceBudget: 3, optimalTurns: null }],
    );
    const writer = createEpisodeWriter(store);
    await writer.write(episode(0, 0.25));
    await writer.flush();
    await store.sql.run("ALTER TABLE turns DROP COLUMN value_before");
    await store.close();
    expect(await columns(path)).not.toContain("value_before");
    const old = await openStore(path, { readonly: true });
    const [read] = await collect(readEpisodes(old, "r", "steps", new Map([[0, "t0"]])));
    expect(read!.turns[0]).toMatchObject({ optimal: true, remainingBefore: 1 });
    expect(read!.turns[0]!.valueBefore).toBeUndefined();
    await old.close();
    const reopened = await openStore(path);
    expect(await columns(path)).toContain("value_before");
    const again = createEpisodeWriter(reopened);
    await again.write(episode(1, 0.5));
    await again.flush();
    expect(
      (await collect(readEpisodes(reopened, "r", "steps", new Map([[0, "t0"]])))).map((e) => e.turns[0]!.valueBefore),
    ).toEqual([undefined, 0.5]);
    await reopened.close();
  });
});
