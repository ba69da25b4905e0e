// The runs of a store as a viewer lists them: every run's record (newest first, read from the small runs table
// alone, so a list is searched and paged without touching episodes), then the outcomes of the runs on one page only
// (their episodes read through the primary key, in one pass). Read-only; the SQL is shared by both backends.
import type { OutcomeCounts } from "../core/outcome.js";
import { toRecord, type RunRecord, type RunRow } from "./runs.js";
import type { Store } from "./store.js";

/** Every run's record, most recently created first. */
export async function runRecords(store: Store): Promise<RunRecord[]> {
  const rows = await store.sql.records<RunRow>(`SELECT * FROM runs ORDER BY ${store.sql.dialect.newestRunFirst}`);
  return rows.map(toRecord);
}

/** A run's stored outcomes: successes and samples per (task, budget), policy errors left out (the input of
 * Pass@(K,T), as outcomeCounts gives them), and how many episodes ended in a policy error. */
export interface RunOutcomeCounts {
  readonly counts: readonly OutcomeCounts[];
  readonly errors: number;
}

/** The outcomes of each of `runIds`, in one pass over their episodes (runs without episodes get none). */
export async function runOutcomeCounts(
  store: Store,
  runIds: readonly string[],
): Promise<Map<string, RunOutcomeCounts>> {
  const found = new Map<string, { counts: OutcomeCounts[]; errors: number }>(
    runIds.map((id) => [id, { counts: [], errors: 0 }]),
  );
  if (runIds.length === 0) return found;
  const rows = await store.sql.rows<[string, number, string, number, number | null, number | null]>(
    `SELECT run_id, task_index, budget_label, SUM(CASE WHEN stop_reason = 'error' THEN 0 ELSE 1 END),
       SUM(CASE WHEN stop_reason = 'error' THEN 0 ELSE success END), SUM(CASE WHEN stop_reason = 'error' THEN 1 ELSE 0 END)
     FROM episodes WHERE run_id IN (${runIds.map(() => "?").join(", ")}) GROUP BY run_id, task_index, budget_label`,
    runIds,
  );
  for (const [id, taskIndex, budget, n, c, errors] of rows) {
    const run = found.get(id);
    if (run === undefined) continue;
    run.errors += errors ?? 0;
    if (n > 0) run.counts.push({ taskIndex, budget, n, c: c ?? 0 });
  }
  return found;
}
