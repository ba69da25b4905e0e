// BFCL through the same rollout engine, store and Pass@(K,T) as every env: the replay policy (the ground truth)
// passes all 800 entries at 25% and 100% per-user-turn budgets, announced or hidden.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { evaluate } from "../../../src/eval/evaluate.js";

describe("bfcl through evaluate()", () => {
  it("replays the ground truth of all 800 entries to success, stored and tabulated", async () => {
    const db = join(mkdtempSync(join(tmpdir(), "budgetrl-bfcl-eval-")), "bfcl.db");
    const result = await evaluate({
      env: "bfcl",
      envOptions: { categories: "base,miss_func,miss_param,long_context" },
      policy: "replay",
      tasks: 800,
      samples: 1,
      budgets: ["25%", "100%"],
      budgetScope: "user-turn",
      budgetMode: "announced",
      bootstrap: 0,
      db,
      concurrency: 8,
    });
    expect(result.done).toBe(1600);
    expect(result.table.tasks).toBe(800);
    expect(result.table.cells[0]?.map((cell) => cell.value)).toEqual([1, 1]);
    const tight = await evaluate({
      env: "bfcl",
      envOptions: { categories: "base" },
      policy: "replay",
      tasks: 20,
      samples: 1,
      budgets: ["1"],
      budgetScope: "user-turn",
      budgetMode: "hidden",
      bootstrap: 0,
    });
    // One step per user turn leaves no room for the closing answer: every entry with calls is cut.
    expect(tight.table.cells[0]?.[0]?.value).toBe(0);
    expect(
      tight.episodes.every((episode) => episode.stopReason === "max_turns" && episode.stopLimit === "user-turn"),
    ).toBe(true);
  }, 120_000);
});
