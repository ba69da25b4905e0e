// Store faults as errors a user can act on: an SQLite error (locked, read-only, malformed, disk full, ...) becomes
// one DataError whose single line names the store and the fix, instead of a stack trace. Errors from a store file
// go through `storeFault` (open.ts and withStore, evaluate) or, without a known path, `storeFaultMessage` (the
// CLI's last resort).
import { DataError } from "../core/errors.js";

/** better-sqlite3's SqliteError, recognised by shape (its class is not exported as a type). */
function sqliteCode(error: unknown): string | undefined {
  if (!(error instanceof Error) || error.name !== "SqliteError") return undefined;
  const code = (error as Error & { code?: unknown }).code;
  return typeof code === "string" ? code : undefined;
}

export function isSqliteError(error: unknown): boolean {
  return sqliteCode(error) !== undefined;
}

/** The one-line message of an SQLite error on the store at `path` (undefined: a store not known here). */
export function storeFaultMessage(code: string, message: string, path: string | undefined): string {
  const store = path === undefined ? "the run store" : `run store ${path}`;
  if (code.startsWith("SQLITE_BUSY") || code.startsWith("SQLITE_LOCKED")) {
    return `${store} is locked by another program writing to it: wait for it to finish or close it (an open sqlite3 session?), or use another --db`;
  }
  if (code.startsWith("SQLITE_READONLY")) return `${store} is read-only: make the file and its folder writable, or use another --db`;
  if (code === "SQLITE_NOTADB") return `${path ?? "the --db file"} is not an SQLite run store (${message}): check the --db path, or use another --db`;
  if (code.startsWith("SQLITE_CORRUPT")) return `${store} is damaged (${message}): restore it from a copy, or use another --db`;
  if (code === "SQLITE_FULL") return `the disk holding ${store} is full: free some space, then continue with --resume`;
  if (code.startsWith("SQLITE_CANTOPEN")) return `cannot open ${store}: check that its folder exists and is writable`;
  if (code.startsWith("SQLITE_IOERR")) return `input/output error on ${store} (${code}): check the disk, then continue with --resume`;
  return `${store}: ${message} (${code})`;
}

/** The DataError for an SQLite error on the store at `path`, or undefined when `error` is not an SQLite error. */
export function storeFault(error: unknown, path: string): DataError | undefined {
  const code = sqliteCode(error);
  return code === undefined ? undefined : new DataError(storeFaultMessage(code, (error as Error).message, path));
}
