// The SQL seam (sql.ts) over better-sqlite3: statements prepared once per text and kept, rows read raw (arrays) or
// as objects, inserts one prepared row at a time (the fastest way into SQLite). better-sqlite3 is synchronous, so
// every promise here is already settled when it is returned; a transaction is BEGIN IMMEDIATE .. COMMIT around
// async work, and the statements of other callers on the connection wait until it ends (they would otherwise land
// inside it). Writers of other processes wait for each other at BEGIN IMMEDIATE: while another one writes, BEGIN is
// tried again every few milliseconds (a random pause, so that waiting writers do not retry in step), for up to the
// busy timeout, without blocking this process's event loop (SQLite's own busy handler sleeps in the thread, and
// serves the single statements outside a transaction, for the same time); past it, the SQLITE_BUSY error goes up
// (faults.ts names the store). A wait at BEGIN that lasts a second is announced in one line (wait-notice.ts).
import type Database from "better-sqlite3";
import { secondsText, startWait, type Wait, type WaitListener } from "../../core/wait-notice.js";
import { insertText, type InsertStatement, type SqlConnection, type SqlQueries, type SqlValue } from "../sql.js";
import { sqliteDialect } from "./dialect.js";

type Statement = Database.Statement<unknown[], unknown>;

export interface SqliteConnectionOptions {
  /** How long a transaction waits for another process's write to end before failing (ms). */
  readonly busyTimeoutMs: number;
  /** Random numbers for the pauses between tries (injected by tests). */
  readonly random?: () => number;
  /** Told, once a wait for another writer lasted a second, what it waits for (the store at `location`). */
  readonly onWait?: WaitListener;
  readonly location?: string;
}

/** The longest pause between two tries of BEGIN IMMEDIATE (ms). */
const MAX_RETRY_PAUSE_MS = 20;

/** SQLite's "another connection holds the lock" (SQLITE_BUSY, SQLITE_LOCKED and their extended codes). */
export function isBusy(error: unknown): boolean {
  const code = error instanceof Error ? (error as Error & { code?: unknown }).code : undefined;
  return typeof code === "string" && (code.startsWith("SQLITE_BUSY") || code.startsWith("SQLITE_LOCKED"));
}

/** The line of a wait for the store's lock. */
export function lockWaitLine(location: string, busyTimeoutMs: number): string {
  return `waiting for run store ${location}: another program holds its lock (writing to it); waiting up to ${secondsText(busyTimeoutMs)} in all (--busy-timeout), then giving up`;
}

/** BEGIN IMMEDIATE, tried again while another connection writes, for up to `busyTimeoutMs`. */
async function beginImmediate(db: Database.Database, options: SqliteConnectionOptions): Promise<void> {
  const random = options.random ?? Math.random;
  const deadline = performance.now() + options.busyTimeoutMs;
  let wait: Wait | undefined;
  try {
    for (let tries = 0; ; tries++) {
      try {
        db.exec("BEGIN IMMEDIATE");
        return;
      } catch (error) {
        if (!isBusy(error) || performance.now() >= deadline) throw error;
      }
      wait ??= startWait(options.onWait, () =>
        lockWaitLine(options.location ?? "(the run store)", options.busyTimeoutMs),
      );
      const pause = Math.min(MAX_RETRY_PAUSE_MS, 2 ** Math.min(tries, 5)) * (0.5 + random());
      await new Promise((resolve) => setTimeout(resolve, Math.max(1, Math.min(pause, deadline - performance.now()))));
    }
  } finally {
    wait?.end();
  }
}

export function sqliteConnection(db: Database.Database, options: SqliteConnectionOptions): SqlConnection {
  const prepared = new Map<string, Statement>();
  const statement = (text: string): Statement => {
    let found = prepared.get(text);
    if (found === undefined) prepared.set(text, (found = db.prepare(text)));
    return found;
  };
  const direct: SqlQueries = {
    rows: <Row extends readonly unknown[]>(text: string, params: readonly SqlValue[] = []) =>
      Promise.resolve(
        statement(text)
          .raw(true)
          .all(...params) as Row[],
      ),
    records: <Row extends object>(text: string, params: readonly SqlValue[] = []) =>
      Promise.resolve(
        statement(text)
          .raw(false)
          .all(...params) as Row[],
      ),
    run: (text, params = []) => Promise.resolve(statement(text).run(...params).changes),
    insertRows: (insert, rows) => {
      const one = statement(insertText(insert, 1));
      for (const row of rows) one.run(...row);
      return Promise.resolve();
    },
    insertNewRows: (insert: InsertStatement, rows) => {
      const one = statement(insertText(insert, 1));
      return Promise.resolve(rows.map((row) => one.run(...row).changes > 0));
    },
  };
  let open: Promise<unknown> | undefined;
  /** SQLite's busy handler is off while BEGIN IMMEDIATE is tried (the waits are ours), on for every other statement. */
  const begin = async (): Promise<void> => {
    db.pragma("busy_timeout = 0");
    try {
      await beginImmediate(db, options);
    } finally {
      db.pragma(`busy_timeout = ${Math.round(options.busyTimeoutMs)}`);
    }
  };
  /** Wait for the transaction in progress, if any, then do `work`. */
  const outside = async <T>(work: () => Promise<T>): Promise<T> => {
    while (open !== undefined) await open.catch(() => undefined);
    return work();
  };
  const transaction = <T>(work: (tx: SqlQueries) => Promise<T>): Promise<T> =>
    outside(async () => {
      // Set as `open` at once, so that the statements of other callers wait while BEGIN waits for the lock too.
      const running = (async () => {
        await begin();
        try {
          const result = await work(direct);
          db.exec("COMMIT");
          return result;
        } catch (error) {
          if (db.inTransaction) db.exec("ROLLBACK");
          throw error;
        }
      })();
      open = running;
      try {
        return await running;
      } finally {
        if (open === running) open = undefined;
      }
    });
  return {
    dialect: sqliteDialect,
    rows: (text, params) => (open === undefined ? direct.rows(text, params) : outside(() => direct.rows(text, params))),
    records: (text, params) =>
      open === undefined ? direct.records(text, params) : outside(() => direct.records(text, params)),
    run: (text, params) => (open === undefined ? direct.run(text, params) : outside(() => direct.run(text, params))),
    insertRows: (insert, rows) => transaction((tx) => tx.insertRows(insert, rows)),
    insertNewRows: (insert, rows) => transaction((tx) => tx.insertNewRows(insert, rows)),
    transaction,
    close: () => {
      db.close();
      return Promise.resolve();
    },
  };
}
