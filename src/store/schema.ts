// The run store's tables, the same in both backends (DDL per dialect: sqlite/dialect.ts, postgres/dialect.ts). An
// episode's identity is (run, task index, budget label, sample): the primary key, so writes are idempotent and a
// resumed run (or a queue job delivered twice) never double-counts. Turns hang off their episode's key.
// Turn annotations (optimal, remaining_before, value_before) are the oracle's view within the turns left.
// value_before and forced (JSON: what an intervention played in the policy's place), and tasks.optimal_turns (what
// a budget written as a multiple of the optimum multiplies), were added within schema
// version 1: stores made before them get the columns on opening (SCHEMA_MIGRATIONS), and readers treat them as
// absent where they are missing or NULL.
// turn_tokens (added within version 1: CREATE IF NOT EXISTS adds it to older stores when they are opened for
// writing; readers treat a store without it as one without token data) keeps what RL needs from a turn: the
// sampled token ids, their log-probs and how they were sampled (temperature, prompt token ids), as JSON text.
// turns_invalid, a partial index over the (few) invalid turns, finds the episodes with an invalid reply without a
// pass over the run's turns (the view's filter, its per-episode counts); added within version 1 the same way.
export const SCHEMA_VERSION = 1;

/** Every table of the schema. */
export const SCHEMA_TABLES = ["meta", "runs", "tasks", "episodes", "turns", "turn_tokens", "train_steps"] as const;

/** Columns added to version-1 tables after their first release: [table, column, SQL type in SQLite, in PostgreSQL]. */
export const SCHEMA_MIGRATIONS: readonly (readonly [string, string, string, string])[] = [
  ["turns", "value_before", "REAL", "DOUBLE PRECISION"],
  ["turns", "forced", "TEXT", "TEXT"],
  ["tasks", "optimal_turns", "INTEGER", "BIGINT"],
];
