// PostgreSQL's side of the SQL that differs between backends: the schema's DDL (BIGINT integers, DOUBLE PRECISION
// doubles so that returns and rewards round-trip exactly, text keys in the "C" collation so that rows come back in
// the same byte order as SQLite's, a sequence column for the newest-run order), JSON through ->>, introspection
// through information_schema. Store queries are otherwise shared (sql.ts).
import type { Dialect } from "../sql.js";

export const postgresDialect: Dialect = {
  name: "postgres",
  jsonFlag: (column, field) => `(CASE (${column}::jsonb ->> '${field}') WHEN 'true' THEN 1 WHEN 'false' THEN 0 END)`,
  newestRunFirst: "created_at DESC, seq DESC",
  tableExists: "SELECT 1 FROM information_schema.tables WHERE table_schema = current_schema() AND table_name = ?",
};

/** The run store's tables in PostgreSQL (see schema.ts for what they hold), with the same columns as SQLite's. */
export const POSTGRES_SCHEMA_SQL = `
CREATE TABLE IF NOT EXISTS meta (key TEXT COLLATE "C" PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS runs (
  id TEXT COLLATE "C" PRIMARY KEY,
  seq BIGSERIAL,
  created_at TEXT COLLATE "C" NOT NULL,
  env TEXT NOT NULL,
  policy TEXT NOT NULL,
  seed BIGINT NOT NULL,
  config TEXT NOT NULL,
  code_version TEXT NOT NULL,
  status TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS tasks (
  run_id TEXT COLLATE "C" NOT NULL,
  task_index BIGINT NOT NULL,
  task_id TEXT NOT NULL,
  task TEXT NOT NULL,
  reference_budget BIGINT NOT NULL,
  optimal_turns BIGINT,
  PRIMARY KEY (run_id, task_index)
);
CREATE TABLE IF NOT EXISTS episodes (
  run_id TEXT COLLATE "C" NOT NULL,
  task_index BIGINT NOT NULL,
  budget_label TEXT COLLATE "C" NOT NULL,
  sample BIGINT NOT NULL,
  seed BIGINT NOT NULL,
  budget_turns BIGINT NOT NULL,
  budget_mode TEXT NOT NULL,
  budget_scope TEXT NOT NULL,
  success INTEGER NOT NULL,
  stop_reason TEXT NOT NULL,
  stop_limit TEXT,
  turns_used BIGINT NOT NULL,
  success_turn BIGINT,
  return DOUBLE PRECISION NOT NULL,
  initial_progress DOUBLE PRECISION NOT NULL,
  error TEXT,
  preamble TEXT NOT NULL,
  PRIMARY KEY (run_id, task_index, budget_label, sample)
);
CREATE TABLE IF NOT EXISTS turns (
  run_id TEXT COLLATE "C" NOT NULL,
  task_index BIGINT NOT NULL,
  budget_label TEXT COLLATE "C" NOT NULL,
  sample BIGINT NOT NULL,
  turn_index BIGINT NOT NULL,
  segment BIGINT NOT NULL,
  observation TEXT NOT NULL,
  action TEXT NOT NULL,
  parsed_action TEXT,
  invalid INTEGER NOT NULL,
  reward DOUBLE PRECISION NOT NULL,
  terminated INTEGER NOT NULL,
  truncated INTEGER NOT NULL,
  progress DOUBLE PRECISION NOT NULL,
  state_key TEXT NOT NULL,
  optimal INTEGER,
  remaining_before DOUBLE PRECISION,
  value_before DOUBLE PRECISION,
  forced TEXT,
  details TEXT,
  PRIMARY KEY (run_id, task_index, budget_label, sample, turn_index)
);
CREATE INDEX IF NOT EXISTS turns_invalid ON turns (run_id, task_index, budget_label, sample) WHERE invalid = 1;
CREATE TABLE IF NOT EXISTS turn_tokens (
  run_id TEXT COLLATE "C" NOT NULL,
  task_index BIGINT NOT NULL,
  budget_label TEXT COLLATE "C" NOT NULL,
  sample BIGINT NOT NULL,
  turn_index BIGINT NOT NULL,
  tokens TEXT,
  logprobs TEXT,
  sampling TEXT,
  PRIMARY KEY (run_id, task_index, budget_label, sample, turn_index)
);
CREATE TABLE IF NOT EXISTS train_steps (
  run_id TEXT COLLATE "C" NOT NULL,
  step BIGINT NOT NULL,
  metrics TEXT NOT NULL,
  PRIMARY KEY (run_id, step)
);
`;
