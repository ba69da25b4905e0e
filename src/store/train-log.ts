// The per-step log of training runs (metrics as JSON), keyed by (run, step): a resumed run that recomputes a
// step replaces its row, so the log never holds a step twice.
import type { Json } from "../core/json.js";
import type { InsertStatement } from "./sql.js";
import type { Store } from "./store.js";

const STEP_INSERT: InsertStatement = {
  table: "train_steps",
  columns: ["run_id", "step", "metrics"],
  key: ["run_id", "step"],
  onConflict: "update",
};

export async function writeTrainStep(store: Store, runId: string, step: number, metrics: Json): Promise<void> {
  await store.sql.insertRows(STEP_INSERT, [[runId, step, JSON.stringify(metrics)]]);
}

export async function readTrainSteps(store: Store, runId: string): Promise<{ step: number; metrics: Json }[]> {
  const rows = await store.sql.rows<[number, string]>(
    "SELECT step, metrics FROM train_steps WHERE run_id = ? ORDER BY step",
    [runId],
  );
  return rows.map(([step, metrics]) => ({ step, metrics: JSON.parse(metrics) as Json }));
}

/** Remove a run and everything stored under it (episodes, turns and their token data, tasks, train log). */
export async function deleteRun(store: Store, runId: string): Promise<void> {
  await store.sql.transaction(async (tx) => {
    for (const table of ["turn_tokens", "turns", "episodes", "tasks", "train_steps"])
      await tx.run(`DELETE FROM ${table} WHERE run_id = ?`, [runId]);
    await tx.run("DELETE FROM runs WHERE id = ?", [runId]);
  });
}
