// The run store's tables. An episode's identity is (run, task index, budget label, sample): the primary key, so
// writes are idempotent and a resumed run never double-counts. Turns hang off their episode's key.
// Turn annotations (optimal, remaining_before, value_before) are the oracle's view within the turns left.
// value_before and forced (JSON: what an intervention played in the policy's place) were added within schema
// version 1: stores made before them get the columns on opening (SCHEMA_MIGRATIONS), and readers treat them as
// absent where they are missing or NULL.
// turn_tokens (added within version 1: CREATE IF NOT EXISTS adds it to older stores when they are opened for
// writing; readers treat a store without it as one without token data) keeps what RL needs from a turn: the
// sampled token ids, their log-probs and how they were sampled (temperature, prompt token ids), as JSON text.
export const SCHEMA_VERSION = 1;

export const SCHEMA_SQL = `
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

/** Columns added to version-1 tables after their first release: [table, column, SQL type]. */
export const SCHEMA_MIGRATIONS: readonly (readonly [string, string, string])[] = [
  ["turns", "value_before", "REAL"],
  ["turns", "forced", "TEXT"],
];
