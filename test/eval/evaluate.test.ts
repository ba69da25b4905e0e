import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ConfigError } from "../../src/core/errors.js";
import { evaluate, type EvaluateOptions } from "../../src/eval/evaluate.js";
import { exportRunJsonl } from "../../src/store/export.js";
import { openStore } from "../../src/store/open.js";
import { listRuns } from "../../src/store/runs.js";

const dir = mkdtempSync(join(tmpdir(), "budgetrl-eval-"));
let counter = 0;
const freshDb = (): string => join(dir, `run-${counter++}.db`);

const base: EvaluateOptions = {
  env: "sokoban",
  policy: "noisy-oracle:0.3",
  tasks: 6,
  samples: 4,
  ks: [1, 4],
  budgets: ["25%", "50%", "100%"],
  budgetMode: "announced",
  seed: 11,
  bootstrap: 200,
  run: "fixed",
  now: () => new Date("2026-01-01T00:00:00Z"),
};

async function exported(db: string, run = "fixed"): Promise<string> {
  const out = join(dir, `export-${counter++}.jsonl`);
  const store = openStore(db);
  try {
    await exportRunJsonl(store, run, out);
  } finally {
    store.close();
  }
  return readFileSync(out, "utf8");
}

describe("evaluate", () => {
  it("gives byte-identical episode tables for the same seed, whatever the concurrency", async () => {
    const a = freshDb();
    const b = freshDb();
    const first = await evaluate({ ...base, db: a });
    const second = await evaluate({ ...base, db: b, concurrency: 7 });
    expect(first.done).toBe(6 * 3 * 4);
    const textA = await exported(a);
    expect(textA.split("\n").filter(Boolean)).toHaveLength(72);
    expect(await exported(b)).toBe(textA);
    expect(second.table).toEqual(first.table);
    const other = freshDb();
    await evaluate({ ...base, db: other, seed: 12 });
    expect(await exported(other)).not.toBe(textA);
  });

  it("resumes an interrupted run to exactly the episodes of an uninterrupted one", async () => {
    const whole = freshDb();
    await evaluate({ ...base, db: whole });
    const broken = freshDb();
    const controller = new AbortController();
    const partial = await evaluate({ ...base, db: broken, signal: controller.signal, onProgress: (done) => done >= 30 && controller.abort() });
    expect(partial.interrupted).toBe(true);
    expect(partial.done).toBeLessThan(72);
    const store = openStore(broken);
    expect(listRuns(store)[0]?.status).toBe("running");
    store.close();
    const resumed = await evaluate({ env: "sokoban", policy: "oracle", db: broken, resume: true });
    expect(resumed.interrupted).toBe(false);
    expect(resumed.config.policy).toBe("noisy-oracle:0.3");
    expect(await exported(broken)).toBe(await exported(whole));
  });

  it("keeps episodes in memory without a store and accepts any async function as the agent", async () => {
    const result = await evaluate({ env: "hanoi", policy: async () => "<answer>A->C</answer>", tasks: 2, samples: 2, budgets: ["100%"], seed: 1, bootstrap: 0 });
    expect(result.episodes).toHaveLength(4);
    expect(result.table.cells[0]?.[0]?.value).toBe(0);
    expect(result.episodes[0]?.turns[1]?.invalid).toBe(true);
  });

  it("protocol single reads every T from one hidden run at the largest T", async () => {
    const separate = await evaluate({ ...base, budgetMode: "hidden", policy: "oracle:unbounded", samples: 2, ks: [1] });
    const single = await evaluate({ ...base, budgetMode: "hidden", policy: "oracle:unbounded", samples: 2, ks: [1], protocol: "single" });
    expect(single.episodes).toHaveLength(6 * 2);
    expect(single.table.cells).toEqual(separate.table.cells);
    // A policy that plays by the turns left, even hidden ones, cannot be read off the largest budget.
    await expect(evaluate({ ...base, budgetMode: "hidden", policy: "noisy-oracle:0.2", samples: 2, ks: [1], protocol: "single" })).rejects.toThrow(/plays by the turns left[\s\S]*HINT: use --protocol separate/);
  });

  it("refuses bad configs before any work, naming the field", async () => {
    await expect(evaluate({ ...base, ks: [8], samples: 4 })).rejects.toThrow(/ks: K = 8 is larger than the number of samples/);
    await expect(evaluate({ ...base, protocol: "single" })).rejects.toThrow(ConfigError);
    await expect(evaluate({ ...base, protocol: "single" })).rejects.toThrow(/only valid when the agent cannot see its budget/);
    await expect(evaluate({ ...base, budgets: ["25%", "lots"] })).rejects.toThrow(/budgets: "lots" is not a budget/);
    await expect(evaluate({ ...base, policy: "genius" })).rejects.toThrow(/policy: unknown policy "genius"/);
    await expect(evaluate({ ...base, env: "chess" })).rejects.toThrow(/env: unknown env "chess"/);
  });
});
