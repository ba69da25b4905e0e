// The run store handle that callers pass around: which backend it is, where it is (as messages show it), and the
// SQL seam its queries run on (sql.ts). Opened by `openStore` (open.ts): an SQLite file (the default) or a
// PostgreSQL database (a postgres:// URL).
import type { SqlConnection } from "./sql.js";

export type StoreBackend = "sqlite" | "postgres";

/** "read": the store must exist (show, runs, export); "write": it must exist, nothing is created (resume, workers);
 * "create": a new store gets its tables (a new run). */
export type StoreMode = "read" | "write" | "create";

export interface Store {
  readonly backend: StoreBackend;
  /** Where the store is, as messages and printed commands show it: the file path, or the URL without its password. */
  readonly location: string;
  readonly sql: SqlConnection;
  close(): Promise<void>;
}
