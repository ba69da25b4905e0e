import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import Database from "better-sqlite3";
import { ConfigError, DataError } from "../../src/core/errors.js";
import type { PolicyContext } from "../../src/core/policy.js";
import { sokoban } from "../../src/envs/sokoban/index.js";
import { evaluate, type EvaluateOptions } from "../../src/eval/evaluate.js";
import { exportRunJsonl } from "../../src/store/export.js";
import { openStore } from "../../src/store/open.js";
import { listRuns, storedTaskCount } from "../../src/store/runs.js";

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
  const store = await openStore(db);
  try {
    await exportRunJsonl(store, run, out);
  } finally {
    await store.close();
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
    const partial = await evaluate({
      ...base,
      db: broken,
      signal: controller.signal,
      onProgress: (done) => done >= 30 && controller.abort(),
    });
    expect(partial.interrupted).toBe(true);
    expect(partial.done).toBeLessThan(72);
    const store = await openStore(broken);
    expect((await listRuns(store))[0]?.status).toBe("running");
    await store.close();
    const resumed = await evaluate({ env: "sokoban", policy: "oracle", db: broken, resume: true });
    expect(resumed.interrupted).toBe(false);
    expect(resumed.config.policy).toEqual({ kind: "noisy-oracle", epsilon: 0.3 });
    expect(await exported(broken)).toBe(await exported(whole));
  });

  it("keeps episodes in memory without a store and accepts any async function as the agent", async () => {
    // Default hanoi has one task (every disk on A).
    const result = await evaluate({
      env: "hanoi",
      policy: async () => "<answer>A->C</answer>",
      tasks: 1,
      samples: 4,
      budgets: ["100%"],
      seed: 1,
      bootstrap: 0,
    });
    expect(result.episodes).toHaveLength(4);
    expect(result.table.cells[0]?.[0]?.value).toBe(0);
    expect(result.episodes[0]?.turns[1]?.invalid).toBe(true);
    // A policy handed over is recorded by its name, read as a spec; a name that reads as none is refused first.
    // (the arrow function is named by its property: "policy")
    expect(result.config.policy).toEqual({ kind: "other", name: "policy" });
    const named = { name: "openai", act: async () => ({ message: { role: "assistant" as const, content: "" } }) };
    await expect(evaluate({ env: "hanoi", policy: named, tasks: 1, samples: 1, budgets: ["100%"] })).rejects.toThrow(
      /^policy: the policy handed over is recorded by its name, read as a spec: openai needs a model name/,
    );
  });

  it("protocol single reads every T from one hidden run at the largest T", async () => {
    const separate = await evaluate({ ...base, budgetMode: "hidden", policy: "oracle:unbounded", samples: 2, ks: [1] });
    const single = await evaluate({
      ...base,
      budgetMode: "hidden",
      policy: "oracle:unbounded",
      samples: 2,
      ks: [1],
      protocol: "single",
    });
    expect(single.episodes).toHaveLength(6 * 2);
    expect(single.table.cells).toEqual(separate.table.cells);
    // A policy that plays by the turns left, even hidden ones, cannot be read off the largest budget.
    await expect(
      evaluate({ ...base, budgetMode: "hidden", policy: "noisy-oracle:0.2", samples: 2, ks: [1], protocol: "single" }),
    ).rejects.toThrow(/plays by the turns left[\s\S]*HINT: use --protocol separate/);
  });

  it("sizes budgets written as multiples by each task's optimal length, stores that length, and reads them back in a single run", async () => {
    const options: EvaluateOptions = {
      ...base,
      env: "hanoi",
      envOptions: { disks: 4, randomStart: true },
      policy: "oracle:unbounded",
      budgets: ["1x", "1.5x", "3x"],
      budgetMode: "hidden",
      samples: 2,
      ks: [1],
      db: freshDb(),
    };
    const result = await evaluate(options);
    for (const episode of result.episodes) {
      const optimal = episode.turns.length; // the unbounded oracle on hanoi plays exactly the optimal moves
      const multiple = Number(episode.budget.label.slice(0, -1));
      expect(episode.budget.turns).toBe(Math.max(1, Math.ceil(multiple * optimal)));
    }
    expect(result.table.cells.flat().map((cell) => cell.value)).toEqual([1, 1, 1]);
    const single = await evaluate({ ...options, protocol: "single", db: freshDb() });
    expect(single.table.cells).toEqual(result.table.cells);
    await expect(evaluate({ ...base, env: "bfcl", budgets: ["2x"] })).rejects.toThrow(
      /budget 2x is a multiple of the optimal length, which env bfcl cannot say/,
    );
  });

  it("refuses bad configs before any work, naming the field", async () => {
    await expect(evaluate({ ...base, ks: [8], samples: 4 })).rejects.toThrow(
      /ks: K = 8 is larger than the number of samples/,
    );
    await expect(evaluate({ ...base, protocol: "single" })).rejects.toThrow(ConfigError);
    await expect(evaluate({ ...base, protocol: "single" })).rejects.toThrow(
      /only valid when the agent cannot see its budget/,
    );
    await expect(evaluate({ ...base, budgets: ["25%", "lots"] })).rejects.toThrow(/budgets: "lots" is not a budget/);
    await expect(evaluate({ ...base, policy: "genius" })).rejects.toThrow(/policy: unknown policy "genius"/);
    await expect(evaluate({ ...base, policy: "noisy-oracle:often" })).rejects.toThrow(
      /^policy: noisy-oracle needs a probability/,
    );
    await expect(evaluate({ ...base, policy: { kind: "noisy-oracle", epsilon: 2 } })).rejects.toThrow(
      /epsilon must be in \[0, 1\]/,
    );
    await expect(evaluate({ ...base, env: "chess" })).rejects.toThrow(/env: unknown env "chess"/);
    const levels = sokoban().tasks.parse("#####\n#@$.#\n#####\n\n#####\n#@$ #\n#. ##\n#####\n");
    await expect(evaluate({ ...base, env: "sokoban", tasks: levels })).rejects.toThrow(
      /^tasks: tasks\[1\] cannot be solved: the BFS oracle searched all 7 states/,
    );
  });

  it("turns a hung policy into error episodes that are not counted, and a resume retries exactly those", async () => {
    const good = (_conversation: readonly unknown[], context: PolicyContext): string => {
      const best = context.privileged.oracle().optimal[0] ?? "Up";
      return context.privileged.toMessage(best).content;
    };
    const whole = freshDb();
    await evaluate({ ...base, policy: good, db: whole });
    // The first attempt at sample 1 of every task (at whichever budget comes first) never answers.
    const hung = new Set<string>();
    const flaky = (conversation: readonly unknown[], context: PolicyContext): string | Promise<string> => {
      const key = `${context.taskId}/${context.sample}`;
      if (context.sample === 1 && context.turn === 1 && !hung.has(key)) {
        hung.add(key);
        return new Promise<string>(() => undefined);
      }
      return good(conversation, context);
    };
    const db = freshDb();
    const first = await evaluate({ ...base, policy: flaky, db, turnTimeout: 0.05, concurrency: 8 });
    expect(first.errors).toBe(6);
    expect(first.firstError).toMatch(/did not answer within the turn timeout of 0.05 s/);
    expect(first).toMatchObject({ complete: false, interrupted: false, done: 72 - 6 });
    const resumed = await evaluate({ env: "sokoban", policy: flaky, db, resume: true, turnTimeout: 0.05 });
    expect(resumed).toMatchObject({ complete: true, errors: 0, done: 72 });
    expect(await exported(db)).toBe(await exported(whole));
  });

  it("streams the tasks of a huge run: nothing planned up front, tasks stored as the run reaches them", async () => {
    const db = freshDb();
    const controller = new AbortController();
    const result = await evaluate({
      env: "sokoban",
      policy: "oracle",
      tasks: 1_000_000_000,
      samples: 2,
      bootstrap: 0,
      db,
      run: "huge",
      signal: controller.signal,
      onProgress: (done) => done >= 300 && controller.abort(),
    });
    expect(result).toMatchObject({ interrupted: true, complete: false, total: 2_000_000_000 });
    const store = await openStore(db, { readonly: true });
    const stored = await storedTaskCount(store, "huge");
    await store.close();
    expect(stored).toBeGreaterThanOrEqual(150);
    expect(stored).toBeLessThanOrEqual(150 + 64);
  });

  it("resumes a run stopped in the middle of its streamed tasks to exactly the episodes of an uninterrupted one", async () => {
    const options = { ...base, tasks: 150, samples: 2, budgets: ["100%"], ks: [1] };
    const whole = freshDb();
    await evaluate({ ...options, db: whole });
    const broken = freshDb();
    const controller = new AbortController();
    await evaluate({
      ...options,
      db: broken,
      concurrency: 3,
      signal: controller.signal,
      onProgress: (done) => done >= 170 && controller.abort(),
    });
    const store = await openStore(broken, { readonly: true });
    expect(await storedTaskCount(store, "fixed")).toBe(128);
    await store.close();
    const resumed = await evaluate({ env: "sokoban", policy: "oracle", db: broken, resume: true });
    expect(resumed.complete).toBe(true);
    expect(await exported(broken)).toBe(await exported(whole));
    expect(resumed.table).toEqual((await evaluate({ ...options, db: whole, resume: true })).table);
  });

  it("refuses to resume from a store that does not exist or has no runs, creating and writing nothing", async () => {
    const missing = join(dir, "missing.db");
    await expect(evaluate({ env: "sokoban", policy: "oracle", db: missing, resume: true })).rejects.toThrow(
      /nothing to resume: .*missing\.db does not exist/,
    );
    expect(existsSync(missing)).toBe(false);
    const empty = freshDb();
    await (await openStore(empty)).close();
    const before = readFileSync(empty);
    await expect(evaluate({ env: "sokoban", policy: "oracle", db: empty, resume: true })).rejects.toThrow(
      /nothing to resume: .* has no runs; start one with `budgetrl eval --db /,
    );
    expect(readFileSync(empty).equals(before)).toBe(true);
  });

  it("waits for a store another writer holds, then fails with a one-line error naming the store, writing nothing", async () => {
    const db = freshDb();
    await (await openStore(db)).close();
    const other = new Database(db);
    other.exec("BEGIN IMMEDIATE");
    try {
      const started = performance.now();
      const attempt = evaluate({ ...base, db, busyTimeout: 0.2 });
      await expect(attempt).rejects.toThrow(DataError);
      await expect(evaluate({ ...base, db, busyTimeout: 0.2 })).rejects.toThrow(
        /^run store .* is locked by another program writing to it: .*use another --db$/,
      );
      expect(performance.now() - started).toBeGreaterThanOrEqual(400);
    } finally {
      other.exec("ROLLBACK");
      other.close();
    }
    const store = await openStore(db, { readonly: true });
    expect(await listRuns(store)).toEqual([]);
    await store.close();
  });
});
