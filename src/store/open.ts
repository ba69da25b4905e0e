// Opening the run store named by --db: a PostgreSQL database for a postgres:// or postgresql:// URL, else an SQLite
// file (the default). Both take the same modes (store.ts) and refuse what cannot be a store before writing
// anything (sqlite/open.ts, postgres/open.ts); `withStore` closes the store after the work and turns store
// errors into one-line DataErrors naming it. Each backend is loaded when a store of its kind is opened, so that
// importing the store (and evaluate()) loads neither the `pg` client nor better-sqlite3. A wait (an SQLite lock held by
// another program, a PostgreSQL server being reconnected to) that lasts a second is told to `onWait` in one line.
import { DataError } from "../core/errors.js";
import type { WaitListener } from "../core/wait-notice.js";
import { storeFault } from "./faults.js";
import { isPostgresUrl, postgresLocation } from "./postgres/url.js";
import type { Store, StoreMode } from "./store.js";

export type { Store, StoreBackend, StoreMode } from "./store.js";

export interface OpenStoreOptions {
  /** Same as mode "read" (kept for callers that only read). */
  readonly readonly?: boolean;
  /** Default "create". */
  readonly mode?: StoreMode;
  /** SQLite: how long a writer waits for another one before giving up (ms, default 60,000). */
  readonly busyTimeoutMs?: number;
  /** PostgreSQL: connections in the pool (default 4). */
  readonly poolSize?: number;
  /** PostgreSQL: how long a server lost after the store was opened is waited for before its statements fail with a
   * ConnectionLostError (ms, default 60,000). */
  readonly reconnectMs?: number;
  /** PostgreSQL: ends a wait for a lost server at once (a run being stopped). */
  readonly signal?: AbortSignal;
  /** Told, once a wait lasted a second, what it waits for and for how long at most (the CLI: one line on stderr). */
  readonly onWait?: WaitListener;
}

/** How long the waits for a store last, and who hears of one that lasted a second (commands pass them on). */
export type StoreWaitOptions = Pick<OpenStoreOptions, "busyTimeoutMs" | "reconnectMs" | "onWait">;

export const DEFAULT_BUSY_TIMEOUT_MS = 60_000;
export const DEFAULT_RECONNECT_MS = 60_000;

function modeOf(options: OpenStoreOptions): StoreMode {
  return options.mode ?? (options.readonly === true ? "read" : "create");
}

/** Where `db` is, as messages show it (a URL loses its password). */
export function storeLocation(db: string): string {
  return isPostgresUrl(db) ? postgresLocation(db) : db;
}

export async function openStore(db: string, options: OpenStoreOptions = {}): Promise<Store> {
  if (db === "") throw new DataError("the run store (--db) is empty: give a file, or a postgres:// URL");
  const mode = modeOf(options);
  if (isPostgresUrl(db)) {
    const { openPostgresStore } = await import("./postgres/open.js");
    return openPostgresStore(db, {
      mode,
      reconnectMs: options.reconnectMs ?? DEFAULT_RECONNECT_MS,
      ...(options.poolSize === undefined ? {} : { poolSize: options.poolSize }),
      ...(options.signal === undefined ? {} : { signal: options.signal }),
      ...(options.onWait === undefined ? {} : { onWait: options.onWait }),
    });
  }
  const { openSqliteStoreWaiting } = await import("./sqlite/open.js");
  return openSqliteStoreWaiting(db, {
    mode,
    busyTimeoutMs: options.busyTimeoutMs ?? DEFAULT_BUSY_TIMEOUT_MS,
    ...(options.onWait === undefined ? {} : { onWait: options.onWait }),
  });
}

/** Open the store `db`, run `work` with it, close it; store errors become one-line DataErrors naming it. */
export async function withStore<T>(
  db: string,
  options: OpenStoreOptions,
  work: (store: Store) => T | Promise<T>,
): Promise<T> {
  const store = await openStore(db, options);
  try {
    return await work(store);
  } catch (error) {
    throw storeFault(error, store.location) ?? error;
  } finally {
    await store.close();
  }
}
