// SQLite's side of the SQL that differs between backends: the schema's DDL (WITHOUT ROWID tables, REAL doubles),
// JSON through json_extract, runs ordered by rowid, introspection through sqlite_master. Store queries are
// otherwise shared (sql.ts).
import type { Dialect } from "../sql.js";

export const sqliteDialect: Dialect = {
  name: "sqlite",
  jsonFlag: (column, field) => `json_extract(${column}, '$.${field}')`,
  newestRunFirst: "created_at DESC, rowid DESC",
  tableExists: "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?",
};

/** The run store's tables in SQLite (see schema.ts for what they hold). */
export const SQLITE_SCHEMA_SQL = `
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS runs (
  id TEXT PRIMARY KEY,
  created_at TEXT NOT NULL,
  env TEXT NOT NULL,
  policy TEXT NOT NULL,
  seed INTEGER NOT NULL,
  config TEXT NOT NULL,
  code_version TEXT NOT NULL,
  status TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS tasks (
  run_id TEXT NOT NULL,
  task_index INTEGER NOT NULL,
  task_id TEXT NOT NULL,
  task TEXT NOT NULL,
  reference_budget INTEGER NOT NULL,
  optimal_turns INTEGER,
  PRIMARY KEY (run_id, task_index)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS episodes (
  run_id TEXT NOT NULL,
  task_index INTEGER NOT NULL,
  budget_label TEXT NOT NULL,
  sample INTEGER NOT NULL,
  seed INTEGER NOT NULL,
  budget_turns INTEGER NOT NULL,
  budget_mode TEXT NOT NULL,
  budget_scope TEXT NOT NULL,
  success INTEGER NOT NULL,
  stop_reason TEXT NOT NULL,
  stop_limit TEXT,
  turns_used INTEGER NOT NULL,
  success_turn INTEGER,
  return REAL NOT NULL,
  initial_progress REAL NOT NULL,
  error TEXT,
  preamble TEXT NOT NULL,
  PRIMARY KEY (run_id, task_index, budget_label, sample)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS turns (
  run_id TEXT NOT NULL,
  task_index INTEGER NOT NULL,
  budget_label TEXT NOT NULL,
  sample INTEGER NOT NULL,
  turn_index INTEGER NOT NULL,
  segment INTEGER NOT NULL,
  observation TEXT NOT NULL,
  action TEXT NOT NULL,
  parsed_action TEXT,
  invalid INTEGER NOT NULL,
  reward REAL NOT NULL,
  terminated INTEGER NOT NULL,
  truncated INTEGER NOT NULL,
  progress REAL NOT NULL,
  state_key TEXT NOT NULL,
  optimal INTEGER,
  remaining_before REAL,
  value_before REAL,
  forced TEXT,
  details TEXT,
  PRIMARY KEY (run_id, task_index, budget_label, sample, turn_index)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS turns_invalid ON turns (run_id, task_index, budget_label, sample) WHERE invalid = 1;
CREATE TABLE IF NOT EXISTS turn_tokens (
  run_id TEXT NOT NULL,
  task_index INTEGER NOT NULL,
  budget_label TEXT NOT NULL,
  sample INTEGER NOT NULL,
  turn_index INTEGER NOT NULL,
  tokens TEXT,
  logprobs TEXT,
  sampling TEXT,
  PRIMARY KEY (run_id, task_index, budget_label, sample, turn_index)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS train_steps (
  run_id TEXT NOT NULL,
  step INTEGER NOT NULL,
  metrics TEXT NOT NULL,
  PRIMARY KEY (run_id, step)
) WITHOUT ROWID;
`;
