// Store faults as errors a user can act on: an SQLite error (locked, read-only, malformed, disk full, ...) or a
// PostgreSQL one (unreachable, login refused, missing database, ...) becomes one DataError whose single line names
// the store and the fix, instead of a stack trace. Errors from a known store go through `storeFault` (open.ts,
// withStore, evaluate, the worker) or, without a known store, `storeFaultMessage` (the CLI's last resort).
import { BudgetrlError, DataError, thrownMessage } from "../core/errors.js";
import { isPostgresServerError, postgresFault, postgresFaultMessage } from "./postgres/faults.js";

/** better-sqlite3's SqliteError, recognised by shape (its class is not exported as a type). */
function sqliteCode(error: unknown): string | undefined {
  if (!(error instanceof Error) || error.name !== "SqliteError") return undefined;
  const code = (error as Error & { code?: unknown }).code;
  return typeof code === "string" ? code : undefined;
}

export function isSqliteError(error: unknown): boolean {
  return sqliteCode(error) !== undefined;
}

/** True for an error raised by either store backend (a connection failure of PostgreSQL is recognised only where
 * the store is known to be one: `storeFault`). */
export function isStoreError(error: unknown): boolean {
  return isSqliteError(error) || isPostgresServerError(error);
}

/** The one-line message of an SQLite error on the store at `path` (undefined: a store not known here). */
export function sqliteFaultMessage(code: string, message: string, path: string | undefined): string {
  const store = path === undefined ? "the run store" : `run store ${path}`;
  if (code.startsWith("SQLITE_BUSY") || code.startsWith("SQLITE_LOCKED")) {
    return `${store} is locked by another program writing to it: wait for it to finish or close it (an open sqlite3 session?), or use another --db`;
  }
  if (code.startsWith("SQLITE_READONLY"))
    return `${store} is read-only: make the file and its folder writable, or use another --db`;
  if (code === "SQLITE_NOTADB")
    return `${path ?? "the --db file"} is not an SQLite run store (${message}): check the --db path, or use another --db`;
  if (code.startsWith("SQLITE_CORRUPT"))
    return `${store} is damaged (${message}): restore it from a copy, or use another --db`;
  if (code === "SQLITE_FULL") return `the disk holding ${store} is full: free some space, then continue with --resume`;
  if (code.startsWith("SQLITE_CANTOPEN")) return `cannot open ${store}: check that its folder exists and is writable`;
  if (code.startsWith("SQLITE_IOERR"))
    return `input/output error on ${store} (${code}): check the disk, then continue with --resume`;
  return `${store}: ${message} (${code})`;
}

/** The one-line message of a store error without a known store (the CLI's last resort). */
export function storeFaultMessage(error: Error & { code: string }): string {
  if (isSqliteError(error)) return sqliteFaultMessage(error.code, error.message, undefined);
  return postgresFaultMessage(error.code, error.message, "(PostgreSQL)");
}

/** The DataError for a store error on the store at `location`, or undefined when `error` is not one. */
export function storeFault(error: unknown, location: string): DataError | undefined {
  // Errors of our own (a lost connection, a refusal) already say what to do.
  if (error instanceof BudgetrlError) return undefined;
  if (/^postgres(ql)?:\/\//i.test(location)) return postgresFault(error, location);
  const code = sqliteCode(error);
  return code === undefined ? undefined : new DataError(sqliteFaultMessage(code, thrownMessage(error), location));
}
