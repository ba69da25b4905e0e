// The run store: runs, tasks, episodes and turns (with their token data), the training log; resumable, idempotent
// writes; JSONL export; the analyses' read-only queries; store faults as errors. Two backends behind one SQL seam
// (sql.ts): SQLite (a file, the default) and PostgreSQL (a postgres:// URL), chosen by `openStore`.
export * from "./analysis-rows.js";
export * from "./episodes.js";
export * from "./export.js";
export * from "./faults.js";
export * from "./open.js";
export * from "./pages.js";
export * from "./runs.js";
export * from "./schema.js";
export * from "./sql.js";
export * from "./train-log.js";
export * from "./turn-tokens.js";
export { isPostgresUrl, postgresLocation } from "./postgres/url.js";
export { openSqliteStore, type SqliteStore } from "./sqlite/open.js";
export { SQLITE_SCHEMA_SQL } from "./sqlite/dialect.js";
export { POSTGRES_SCHEMA_SQL } from "./postgres/dialect.js";
