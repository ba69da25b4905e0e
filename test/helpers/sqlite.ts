// An SQLite store opened synchronously, with its better-sqlite3 handle, for tests that look under the store's SQL
// seam (raw counts, damaged rows, WAL checkpoints).
import { openSqliteStore, type SqliteStore } from "../../src/store/sqlite/open.js";

export function openSqlite(path: string, options: { readonly readonly?: boolean } = {}): SqliteStore {
  return openSqliteStore(path, { mode: options.readonly === true ? "read" : "create", busyTimeoutMs: 10_000 });
}
