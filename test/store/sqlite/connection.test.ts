// Writers of one SQLite store wait for each other at BEGIN IMMEDIATE without blocking their event loop, for up to
// the busy timeout; past it, SQLITE_BUSY (a one-line store fault) and the connection is usable again.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { storeFault } from "../../../src/store/faults.js";
import { openSqliteStore } from "../../../src/store/sqlite/open.js";

const dir = mkdtempSync(join(tmpdir(), "budgetrl-sqlite-connection-"));
let counter = 0;

/** A store, and another connection to its file (another writer). */
function storeAndOther(busyTimeoutMs: number) {
  const path = join(dir, `store-${counter++}.db`);
  const store = openSqliteStore(path, { mode: "create", busyTimeoutMs });
  const other = new Database(path);
  return { path, store, other };
}

const insertMeta = (key: string) => (tx: { run: (text: string, params: string[]) => Promise<number> }) =>
  tx.run("INSERT INTO meta (key, value) VALUES (?, 'v')", [key]);

describe("SQLite writers wait for each other", () => {
  it("a transaction waits for another writer's lock with its event loop free, then commits", async () => {
    const { store, other } = storeAndOther(30_000);
    other.exec("BEGIN IMMEDIATE");
    let settled = false;
    const writing = store.sql.transaction(insertMeta("waited")).finally(() => void (settled = true));
    // The writer's first BEGIN found the lock taken; the event loop still turns (SQLite's own busy handler would
    // hold this thread until its timeout, and the lock could never be released below).
    await new Promise((resolve) => setImmediate(resolve));
    expect(settled).toBe(false);
    // Statements of other callers on the same connection wait for the transaction, as they do while it runs.
    const reading = store.sql.rows<[number]>("SELECT COUNT(*) FROM meta WHERE key = 'waited'");
    other.exec("COMMIT");
    await writing;
    expect(await reading).toEqual([[1]]);
    other.close();
    await store.close();
  });

  it("gives up after the busy timeout with SQLITE_BUSY, named as a locked store, and the connection works after", async () => {
    const { path, store, other } = storeAndOther(150);
    other.exec("BEGIN IMMEDIATE");
    const started = performance.now();
    const failure = await store.sql.transaction(insertMeta("never")).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(performance.now() - started).toBeGreaterThanOrEqual(150);
    expect((failure as { code?: string }).code).toMatch(/^SQLITE_BUSY/);
    expect(storeFault(failure, path)?.message).toMatch(
      /^run store .* is locked by another program writing to it: wait for it to finish/,
    );
    other.exec("ROLLBACK");
    await store.sql.transaction(insertMeta("after"));
    expect(await store.sql.rows("SELECT key FROM meta WHERE key IN ('never', 'after')")).toEqual([["after"]]);
    // SQLite's busy handler is back for the statements outside transactions.
    expect(store.db.pragma("busy_timeout", { simple: true })).toBe(150);
    other.close();
    await store.close();
  });

  it("transactions of one connection that wait at once run one after the other", async () => {
    const { store, other } = storeAndOther(30_000);
    other.exec("BEGIN IMMEDIATE");
    const writes = ["a", "b", "c"].map((key) => store.sql.transaction(insertMeta(key)));
    await new Promise((resolve) => setImmediate(resolve));
    other.exec("COMMIT");
    await Promise.all(writes);
    expect(await store.sql.rows("SELECT key FROM meta WHERE key IN ('a', 'b', 'c') ORDER BY key")).toEqual([
      ["a"],
      ["b"],
      ["c"],
    ]);
    other.close();
    await store.close();
  });
});
