import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
// Opening SQLite stores: modes, and the files that are refused (PostgreSQL's own refusals: postgres-open.test.ts).
import { describe, expect, it } from "vitest";
import { DataError } from "../../src/core/errors.js";
import { openStore, withStore } from "../../src/store/open.js";
import { createRun, listRuns } from "../../src/store/runs.js";

const dir = mkdtempSync(join(tmpdir(), "budgetrl-open-"));
let counter = 0;
const fresh = (): string => join(dir, `store-${counter++}.db`);

describe("openStore", () => {
  it("makes a new store with all its tables at once, and opens it again in every mode", async () => {
    const path = fresh();
    await (await openStore(path)).close();
    const raw = new Database(path, { readonly: true });
    const tables = raw.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").pluck().all();
    raw.close();
    expect(tables).toEqual(["episodes", "meta", "runs", "tasks", "train_steps", "turn_tokens", "turns"]);
    for (const mode of ["read", "write", "create"] as const) await (await openStore(path, { mode })).close();
    // An empty file (touch) becomes a store too.
    const touched = fresh();
    writeFileSync(touched, "");
    await (await openStore(touched)).close();
    await withStore(touched, { mode: "read" }, async (store) => expect(await listRuns(store)).toEqual([]));
  });

  it("refuses an SQLite file of another program without adding a table to it", async () => {
    const path = fresh();
    const other = new Database(path);
    other.exec("CREATE TABLE invoices (id INTEGER PRIMARY KEY, total REAL); INSERT INTO invoices VALUES (1, 9.5);");
    other.close();
    const before = readFileSync(path);
    for (const mode of ["create", "write", "read"] as const) {
      await expect(openStore(path, { mode })).rejects.toThrow(
        /is an SQLite file of another program \(tables: invoices\), not a budgetrl run store; budgetrl will not add its tables to it: use another --db/,
      );
    }
    expect(readFileSync(path).equals(before)).toBe(true);
  });

  it("refuses a file that is not SQLite, or a damaged store, leaving it as it was", async () => {
    const text = fresh();
    writeFileSync(text, "not a database at all, just text ".repeat(50));
    const before = readFileSync(text);
    await expect(openStore(text)).rejects.toThrow(DataError);
    await expect(openStore(text)).rejects.toThrow(
      /is not an SQLite run store \(file is not a database\): check the --db path/,
    );
    expect(readFileSync(text).equals(before)).toBe(true);

    const damaged = fresh();
    const store = await openStore(damaged);
    await createRun(
      store,
      { id: "r", createdAt: "2026", env: "e", policy: "p", seed: 1, config: {}, codeVersion: "t", status: "running" },
      Array.from({ length: 2000 }, (_, index) => ({
        index,
        id: `t${index}`,
        task: { padding: "x".repeat(200) },
        referenceBudget: 1,
        optimalTurns: null,
      })),
    );
    await store.close();
    const bytes = readFileSync(damaged);
    bytes.fill(0x55, 4096 * 3, 4096 * 6);
    writeFileSync(damaged, bytes);
    await expect(
      withStore(damaged, { mode: "read" }, (opened) =>
        opened.sql.rows("SELECT COUNT(*) FROM tasks WHERE task LIKE '%y%'"),
      ),
    ).rejects.toThrow(
      /^run store .* is damaged \(database disk image is malformed\): restore it from a copy, or use another --db$/,
    );
  });

  it("never creates a store in read or write mode, and names a missing folder", async () => {
    const missing = fresh();
    await expect(openStore(missing, { mode: "read" })).rejects.toThrow(/run store .* does not exist/);
    await expect(openStore(missing, { mode: "write" })).rejects.toThrow(/run store .* does not exist/);
    expect(existsSync(missing)).toBe(false);
    await expect(openStore(join(dir, "no-such-folder", "x.db"))).rejects.toThrow(
      /cannot create run store .*: the folder .*no-such-folder does not exist/,
    );
  });
});
