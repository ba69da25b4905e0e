import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { DataError } from "../../src/core/errors.js";
import { openStore, withStore } from "../../src/store/open.js";
import { createRun, listRuns } from "../../src/store/runs.js";

const dir = mkdtempSync(join(tmpdir(), "budgetrl-open-"));
let counter = 0;
const fresh = (): string => join(dir, `store-${counter++}.db`);

describe("openStore", () => {
  it("makes a new store with all its tables at once, and opens it again in every mode", () => {
    const path = fresh();
    openStore(path).close();
    const raw = new Database(path, { readonly: true });
    const tables = raw.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").pluck().all();
    raw.close();
    expect(tables).toEqual(["episodes", "meta", "runs", "tasks", "train_steps", "turn_tokens", "turns"]);
    for (const mode of ["read", "write", "create"] as const) openStore(path, { mode }).close();
    // An empty file (touch) becomes a store too.
    const touched = fresh();
    writeFileSync(touched, "");
    openStore(touched).close();
    expect(listRuns(openStore(touched, { mode: "read" }))).toEqual([]);
  });

  it("refuses an SQLite file of another program without adding a table to it", () => {
    const path = fresh();
    const other = new Database(path);
    other.exec("CREATE TABLE invoices (id INTEGER PRIMARY KEY, total REAL); INSERT INTO invoices VALUES (1, 9.5);");
    other.close();
    const before = readFileSync(path);
    for (const mode of ["create", "write", "read"] as const) {
      expect(() => openStore(path, { mode })).toThrow(/is an SQLite file of another program \(tables: invoices\), not a budgetrl run store; budgetrl will not add its tables to it: use another --db/);
    }
    expect(readFileSync(path).equals(before)).toBe(true);
  });

  it("refuses a file that is not SQLite, or a damaged store, leaving it as it was", async () => {
    const text = fresh();
    writeFileSync(text, "not a database at all, just text ".repeat(50));
    const before = readFileSync(text);
    expect(() => openStore(text)).toThrow(DataError);
    expect(() => openStore(text)).toThrow(/is not an SQLite run store \(file is not a database\): check the --db path/);
    expect(readFileSync(text).equals(before)).toBe(true);

    const damaged = fresh();
    const store = openStore(damaged);
    createRun(store, { id: "r", createdAt: "2026", env: "e", policy: "p", seed: 1, config: {}, codeVersion: "t", status: "running" }, Array.from({ length: 2000 }, (_, index) => ({ index, id: `t${index}`, task: { padding: "x".repeat(200) }, referenceBudget: 1 })));
    store.close();
    const bytes = readFileSync(damaged);
    bytes.fill(0x55, 4096 * 3, 4096 * 6);
    writeFileSync(damaged, bytes);
    await expect(withStore(damaged, { mode: "read" }, (opened) => opened.db.prepare("SELECT COUNT(*) FROM tasks WHERE task LIKE '%y%'").get())).rejects.toThrow(
      /^run store .* is damaged \(database disk image is malformed\): restore it from a copy, or use another --db$/,
    );
  });

  it("never creates a store in read or write mode, and names a missing folder", () => {
    const missing = fresh();
    expect(() => openStore(missing, { mode: "read" })).toThrow(/run store .* does not exist/);
    expect(() => openStore(missing, { mode: "write" })).toThrow(/run store .* does not exist/);
    expect(existsSync(missing)).toBe(false);
    expect(() => openStore(join(dir, "no-such-folder", "x.db"))).toThrow(/cannot create run store .*: the folder .*no-such-folder does not exist/);
  });
});
