// Opening an SQLite run store (better-sqlite3 12.x). WAL journal with synchronous=NORMAL: a process killed at
// any moment (kill -9) loses at most the transaction in flight, never a committed episode, and never leaves a
// half-written one (an episode and its turns commit together). Tables and columns added within the current
// schema version (turn_tokens; SCHEMA_MIGRATIONS) are added to older stores when they are opened for writing.
//
// Three modes (open.ts): "read" (the store must exist), "write" (it must exist; nothing is created), "create" (the
// file is made and its tables added in one transaction, so a store has all its tables or none). A file that
// cannot be a store is refused before anything is written: not SQLite, read-only, locked past the busy timeout, or
// an SQLite file of another program (tables but no budgetrl schema: budgetrl never adds its tables to it). Writers
// wait for each other (busy timeout), so several evals and workers can write into one store at once. A store in a
// folder that cannot be written (a read-only mount, results shared read-only) is still read (read-copy.ts).
// `openSqliteStoreWaiting` (what openStore uses) waits for a lock held at opening without blocking the event loop,
// and says so after a second (wait-notice.ts); `openSqliteStore` opens at once (tests and benches).
import { accessSync, constants, existsSync, statSync } from "node:fs";
import { dirname } from "node:path";
import Database from "better-sqlite3";
import { DataError, thrownMessage } from "../../core/errors.js";
import { storeFault } from "../faults.js";
import { SCHEMA_MIGRATIONS, SCHEMA_TABLES, SCHEMA_VERSION } from "../schema.js";
import type { Store, StoreMode } from "../store.js";
import { startWait, type Wait, type WaitListener } from "../../core/wait-notice.js";
import { isBusy, lockWaitLine, sqliteConnection } from "./connection.js";
import { SQLITE_SCHEMA_SQL } from "./dialect.js";
import { copyForReading, needsWritableFolder } from "./read-copy.js";

export type Db = Database.Database;

/** An SQLite store, with its better-sqlite3 handle (tests and benches reach under the seam through it). */
export interface SqliteStore extends Store {
  readonly backend: "sqlite";
  readonly db: Db;
}

/** Refusals that need no SQLite: a missing store, a missing folder, a file we may not write. */
function checkPath(path: string, mode: StoreMode): void {
  if (!existsSync(path)) {
    if (mode !== "create")
      throw new DataError(
        `run store ${path} does not exist: check the --db path (\`budgetrl runs --db FILE\` lists what a store holds)`,
      );
    if (!existsSync(dirname(path)))
      throw new DataError(
        `cannot create run store ${path}: the folder ${dirname(path)} does not exist; create it or use another --db`,
      );
    return;
  }
  if (statSync(path).isDirectory())
    throw new DataError(
      `${path} is a folder, not a run store: give a file name, e.g. --db ${path.replace(/\/+$/, "")}/runs.db`,
    );
  if (mode === "read") return;
  try {
    accessSync(path, constants.R_OK | constants.W_OK);
  } catch {
    throw new DataError(`run store ${path} is read-only: make the file and its folder writable, or use another --db`);
  }
}

function tableNames(db: Db): string[] {
  return db
    .prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name")
    .pluck()
    .all() as string[];
}

function storedVersion(db: Db): string | undefined {
  const row = db.prepare("SELECT value FROM meta WHERE key = 'schema_version'").get() as { value: string } | undefined;
  return row?.value;
}

/** What a file holds: a budgetrl store, nothing yet, or another program's tables. */
function classify(db: Db, path: string): "store" | "empty" {
  const tables = tableNames(db);
  if (tables.length === 0) return "empty";
  if (tables.includes("meta") && storedVersion(db) !== undefined) return "store";
  const shown = tables.slice(0, 5).join(", ") + (tables.length > 5 ? ", ..." : "");
  throw new DataError(
    `${path} is an SQLite file of another program (tables: ${shown}), not a budgetrl run store; budgetrl will not add its tables to it: use another --db`,
  );
}

/** Add the schema to an empty file, or the tables a store lacks, in one transaction. */
function ensureSchema(db: Db): void {
  const complete = (tables: readonly string[]): boolean => SCHEMA_TABLES.every((table) => tables.includes(table));
  if (complete(tableNames(db))) return;
  db.transaction(() => {
    const tables = tableNames(db);
    if (tables.length > 0 && !tables.includes("meta"))
      throw new DataError("another program created tables in this file while budgetrl was opening it");
    if (complete(tables)) return;
    db.exec(SQLITE_SCHEMA_SQL);
    if (storedVersion(db) === undefined)
      db.prepare("INSERT INTO meta (key, value) VALUES ('schema_version', ?)").run(String(SCHEMA_VERSION));
  }).immediate();
}

/** Columns added within the current schema version, added to stores made before them (one transaction). */
function addMissingColumns(db: Db): void {
  const present = (table: string, column: string): boolean =>
    (db.prepare(`PRAGMA table_info(${table})`).all() as { name: string }[]).some(
      (existing) => existing.name === column,
    );
  const missing = SCHEMA_MIGRATIONS.filter(([table, column]) => !present(table, column));
  if (missing.length === 0) return;
  db.transaction(() => {
    for (const [table, column, type] of missing)
      if (!present(table, column)) db.exec(`ALTER TABLE ${table} ADD COLUMN ${column} ${type}`);
  }).immediate();
}

function prepare(db: Db, path: string, mode: StoreMode): void {
  const kind = classify(db, path);
  if (kind === "empty" && mode !== "create")
    throw new DataError(`${path} is not a budgetrl run store (it has no tables): check the --db path`);
  if (mode === "read") return;
  db.pragma("journal_mode = WAL");
  db.pragma("synchronous = NORMAL");
  // A new store gets every table; an existing one (create or write) the tables added since it was made.
  ensureSchema(db);
  const version = storedVersion(db);
  if (Number(version) !== SCHEMA_VERSION)
    throw new DataError(
      `run store ${path} has schema version ${version}; this budgetrl reads version ${SCHEMA_VERSION}: use a matching budgetrl, or another --db`,
    );
  addMissingColumns(db);
}

function openDatabase(file: string, path: string, mode: StoreMode, busyTimeoutMs: number): Db {
  try {
    return new Database(file, { readonly: mode === "read", fileMustExist: mode !== "create", timeout: busyTimeoutMs });
  } catch (error) {
    if (isBusy(error)) throw error;
    throw storeFault(error, path) ?? new DataError(`cannot open run store ${path}: ${thrownMessage(error)}`);
  }
}

/** Open and check the store; `path` is how messages name it, `file` what is opened (the store, or a copy of it). */
function openChecked(file: string, path: string, mode: StoreMode, busyTimeoutMs: number): Db {
  const db = openDatabase(file, path, mode, busyTimeoutMs);
  try {
    prepare(db, path, mode);
    return db;
  } catch (error) {
    db.close();
    throw error;
  }
}

interface Opened {
  readonly db: Db;
  readonly release: () => void;
}

/** A store opened for reading in a folder that cannot be written is read from a copy (read-copy.ts). */
function openForReading(path: string, busyTimeoutMs: number): Opened {
  try {
    return { db: openChecked(path, path, "read", busyTimeoutMs), release: () => undefined };
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (typeof code !== "string" || !needsWritableFolder(code)) throw error;
  }
  const copy = copyForReading(path);
  try {
    return { db: openChecked(copy.path, path, "read", busyTimeoutMs), release: copy.remove };
  } catch (error) {
    copy.remove();
    throw error;
  }
}

/** One try at opening: SQLite's busy handler waits up to `busyTimeoutMs` in the thread; a lock held past it comes out
 * as SQLite's busy error, others as DataErrors. */
function openOnce(path: string, mode: StoreMode, busyTimeoutMs: number): Opened {
  try {
    return mode === "read"
      ? openForReading(path, busyTimeoutMs)
      : { db: openChecked(path, path, mode, busyTimeoutMs), release: () => undefined };
  } catch (error) {
    if (error instanceof DataError || isBusy(error)) throw error;
    throw storeFault(error, path) ?? error;
  }
}

export interface SqliteOpenOptions {
  readonly mode: StoreMode;
  /** How long to wait for another program's lock (ms), when opening and at each write. */
  readonly busyTimeoutMs: number;
  /** Told, once a wait for a lock lasted a second, what it waits for and for how long at most (wait-notice.ts). */
  readonly onWait?: WaitListener;
}

function storeOf(opened: Opened, path: string, options: SqliteOpenOptions): SqliteStore {
  const { db, release } = opened;
  return {
    backend: "sqlite",
    db,
    location: path,
    sql: sqliteConnection(db, {
      busyTimeoutMs: options.busyTimeoutMs,
      ...(options.onWait === undefined ? {} : { onWait: options.onWait, location: path }),
    }),
    close: () => {
      db.close();
      release();
      return Promise.resolve();
    },
  };
}

/** Open a store at once; a lock is waited for inside SQLite, blocking the thread (tests and benches). */
export function openSqliteStore(path: string, options: SqliteOpenOptions): SqliteStore {
  checkPath(path, options.mode);
  try {
    return storeOf(openOnce(path, options.mode, options.busyTimeoutMs), path, options);
  } catch (error) {
    throw storeFault(error, path) ?? error;
  }
}

/** The longest pause between two tries at opening a locked store (ms). */
const OPEN_RETRY_PAUSE_MS = 50;

/** Open a store, waiting for another program's lock without blocking the event loop: tried again every few
 * milliseconds up to the busy timeout (announced after a second), then refused in one line (faults.ts). */
export async function openSqliteStoreWaiting(path: string, options: SqliteOpenOptions): Promise<SqliteStore> {
  checkPath(path, options.mode);
  const deadline = performance.now() + options.busyTimeoutMs;
  let wait: Wait | undefined;
  try {
    for (let tries = 0; ; tries++) {
      try {
        const opened = openOnce(path, options.mode, 0);
        opened.db.pragma(`busy_timeout = ${Math.round(options.busyTimeoutMs)}`);
        return storeOf(opened, path, options);
      } catch (error) {
        if (!isBusy(error) || performance.now() >= deadline) throw storeFault(error, path) ?? error;
      }
      wait ??= startWait(options.onWait, () => lockWaitLine(path, options.busyTimeoutMs));
      const pause = Math.min(OPEN_RETRY_PAUSE_MS, 2 ** Math.min(tries, 6));
      await new Promise((resolve) => setTimeout(resolve, Math.max(1, Math.min(pause, deadline - performance.now()))));
    }
  } finally {
    wait?.end();
  }
}
