// The per-step log of training runs (metrics as JSON), keyed by (run, step): a resumed run that recomputes a
// step replaces its row, so the log never holds a step twice.
import type { Json } from "../core/json.js";
import type { Store } from "./open.js";

export function writeTrainStep(store: Store, runId: string, step: number, metrics: Json): void {
  store.db.prepare("INSERT OR REPLACE INTO train_steps (run_id, step, metrics) VALUES (?, ?, ?)").run(runId, step, JSON.stringify(metrics));
}

export function readTrainSteps(store: Store, runId: string): { step: number; metrics: Json }[] {
  const rows = store.db.prepare("SELECT step, metrics FROM train_steps WHERE run_id = ? ORDER BY step").all(runId) as { step: number; metrics: string }[];
  return rows.map((row) => ({ step: row.step, metrics: JSON.parse(row.metrics) as Json }));
}

/** Remove a run and everything stored under it (episodes, turns, tasks, train log). */
export function deleteRun(store: Store, runId: string): void {
  store.db.transaction(() => {
    for (const table of ["turns", "episodes", "tasks", "train_steps", "runs"]) {
      store.db.prepare(`DELETE FROM ${table} WHERE ${table === "runs" ? "id" : "run_id"} = ?`).run(runId);
    }
  })();
}
