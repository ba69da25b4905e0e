// Runs and their tasks in the store. A run records everything needed to resume it or recompute its tables:
// its config (as JSON), seed, code version, and the exact task list. A task file or dataset is stored whole when
// the run starts; generated tasks are stored in chunks as the run reaches them (before their first episode), so a
// run of a billion tasks never plans them all up front. Stored tasks are the source of truth: a resumed run reads
// them back and never regenerates one. Every function is async: the store may be SQLite or PostgreSQL (sql.ts).
import { evalResumeCommand } from "../core/commands.js";
import { taskBudgetBasis, type BudgetBasis, type BudgetScope } from "../core/budget.js";
import type { AnyEnv } from "../core/env.js";
import { DataError, RunExistsError } from "../core/errors.js";
import type { Json } from "../core/json.js";
import type { InsertStatement } from "./sql.js";
import type { Store } from "./store.js";

export type RunStatus = "running" | "complete";

export interface RunRecord {
  readonly id: string;
  readonly createdAt: string;
  readonly env: string;
  readonly policy: string;
  readonly seed: number;
  readonly config: Json;
  readonly codeVersion: string;
  readonly status: RunStatus;
}

export interface StoredTask {
  readonly index: number;
  readonly id: string;
  readonly task: Json;
  /** Reference budget of the task for the run's budget scope. */
  readonly referenceBudget: number;
  /** Its optimal length for that scope (what "1.5x" multiplies); null when the env cannot say. */
  readonly optimalTurns: number | null;
}

/** A row of the runs table, as the store wrote it. */
export interface RunRow {
  id: string;
  created_at: string;
  env: string;
  policy: string;
  seed: number;
  config: string;
  code_version: string;
  status: string;
}

export function toRecord(row: RunRow): RunRecord {
  return {
    id: row.id,
    createdAt: row.created_at,
    env: row.env,
    policy: row.policy,
    seed: row.seed,
    config: JSON.parse(row.config) as Json,
    codeVersion: row.code_version,
    status: row.status as RunStatus,
  };
}

const TASK_INSERT: InsertStatement = {
  table: "tasks",
  columns: ["run_id", "task_index", "task_id", "task", "reference_budget", "optimal_turns"],
  key: ["run_id", "task_index"],
  onConflict: "nothing",
};
const RUN_INSERT: InsertStatement = {
  table: "runs",
  columns: ["id", "created_at", "env", "policy", "seed", "config", "code_version", "status"],
  key: ["id"],
  onConflict: "nothing",
};

/** A task as the store keeps it: index, id, JSON form and its budget basis under the run's scope. */
export function storedTask(env: Pick<AnyEnv, "tasks">, task: unknown, index: number, scope: BudgetScope): StoredTask {
  const basis = taskBudgetBasis(env, task, scope);
  return {
    index,
    id: env.tasks.id(task),
    task: env.tasks.encode(task),
    referenceBudget: basis.reference,
    optimalTurns: basis.optimal,
  };
}

export async function runExists(store: Store, id: string): Promise<boolean> {
  return (await store.sql.rows("SELECT 1 FROM runs WHERE id = ?", [id])).length > 0;
}

const taskRow = (runId: string, task: StoredTask) => [
  runId,
  task.index,
  task.id,
  JSON.stringify(task.task),
  task.referenceBudget,
  task.optimalTurns,
];

/** Store a new run with the tasks known at its start (all of a task file or dataset; none when tasks are generated
 * as the run reaches them, see `storeTasks`). Refuses a name already taken. */
export async function createRun(store: Store, record: RunRecord, tasks: Iterable<StoredTask>): Promise<void> {
  await store.sql.transaction(async (tx) => {
    const [created] = await tx.insertNewRows(RUN_INSERT, [
      [
        record.id,
        record.createdAt,
        record.env,
        record.policy,
        record.seed,
        JSON.stringify(record.config),
        record.codeVersion,
        record.status,
      ],
    ]);
    if (created !== true) {
      throw new RunExistsError(record.id, store.location, evalResumeCommand(record.id, store.location));
    }
    await tx.insertRows(
      TASK_INSERT,
      [...tasks].map((task) => taskRow(record.id, task)),
    );
  });
}

/** Add tasks to a run as it reaches them (generated tasks are stored in chunks, before their first episode). */
export async function storeTasks(store: Store, runId: string, tasks: Iterable<StoredTask>): Promise<void> {
  await store.sql.insertRows(
    TASK_INSERT,
    [...tasks].map((task) => taskRow(runId, task)),
  );
}

export async function getRun(store: Store, id: string): Promise<RunRecord> {
  const [row] = await store.sql.records<RunRow>("SELECT * FROM runs WHERE id = ?", [id]);
  if (row === undefined) {
    const known = (await listRuns(store)).map((run) => run.id);
    throw new DataError(
      `no run "${id}" in ${store.location}`,
      known.length === 0 ? "the store has no runs yet" : `runs here: ${known.slice(-10).join(", ")}`,
    );
  }
  return toRecord(row);
}

export interface RunSummary extends RunRecord {
  readonly episodes: number;
  readonly successes: number;
  /** Episodes that ended in a policy error (not counted; retried on resume). */
  readonly errors: number;
  /** Episodes ended by the model's context length (counted as failures). */
  readonly contextLength: number;
}

export async function listRuns(store: Store): Promise<RunSummary[]> {
  const rows = await store.sql.records<
    RunRow & { episodes: number; successes: number; errors: number; context_length: number }
  >(
    `SELECT r.*, COALESCE(e.episodes, 0) AS episodes, COALESCE(e.successes, 0) AS successes, COALESCE(e.errors, 0) AS errors,
       COALESCE(e.context_length, 0) AS context_length
     FROM runs r LEFT JOIN (SELECT run_id, COUNT(*) AS episodes, SUM(success) AS successes, SUM(CASE WHEN stop_reason = 'error' THEN 1 ELSE 0 END) AS errors,
       SUM(CASE WHEN stop_reason = 'context_length' THEN 1 ELSE 0 END) AS context_length FROM episodes GROUP BY run_id) e
     ON e.run_id = r.id ORDER BY r.created_at, r.id`,
  );
  return rows.map((row) => ({
    ...toRecord(row),
    episodes: row.episodes,
    successes: row.successes,
    errors: row.errors,
    contextLength: row.context_length,
  }));
}

/** The most recently created run, if any. */
export async function latestRunId(store: Store): Promise<string | undefined> {
  const [row] = await store.sql.rows<[string]>(
    `SELECT id FROM runs ORDER BY ${store.sql.dialect.newestRunFirst} LIMIT 1`,
  );
  return row?.[0];
}

/** Replace a run's stored config (`budgetrl env-server` widens its run's budgets, tasks and samples as clients play). */
export async function setRunConfig(store: Store, id: string, config: Json): Promise<void> {
  await store.sql.run("UPDATE runs SET config = ? WHERE id = ?", [JSON.stringify(config), id]);
}

export async function setRunStatus(store: Store, id: string, status: RunStatus): Promise<void> {
  await store.sql.run("UPDATE runs SET status = ? WHERE id = ?", [status, id]);
}

interface TaskRow {
  task_index: number;
  task_id: string;
  task: string;
  reference_budget: number;
  /** Absent in stores made before it and opened read-only. */
  optimal_turns?: number | null;
}

function toStoredTask(row: TaskRow): StoredTask {
  return {
    index: row.task_index,
    id: row.task_id,
    task: JSON.parse(row.task) as Json,
    referenceBudget: row.reference_budget,
    optimalTurns: row.optimal_turns ?? null,
  };
}

export async function loadTasks(store: Store, runId: string): Promise<StoredTask[]> {
  const rows = await store.sql.records<TaskRow>("SELECT * FROM tasks WHERE run_id = ? ORDER BY task_index", [runId]);
  return rows.map(toStoredTask);
}

/** The stored tasks with index in [from, to), in order. */
export async function loadTaskRange(store: Store, runId: string, from: number, to: number): Promise<StoredTask[]> {
  const rows = await store.sql.records<TaskRow>(
    "SELECT * FROM tasks WHERE run_id = ? AND task_index >= ? AND task_index < ? ORDER BY task_index",
    [runId, from, to],
  );
  return rows.map(toStoredTask);
}

/** How many tasks a run has stored (they are stored in index order, so they are tasks 0 .. count-1). */
export async function storedTaskCount(store: Store, runId: string): Promise<number> {
  const [row] = await store.sql.rows<[number]>("SELECT COUNT(*) FROM tasks WHERE run_id = ?", [runId]);
  return row?.[0] ?? 0;
}

/** The budget basis (reference budget, optimal length) of every stored task, by index, without reading the tasks. */
export async function budgetBases(store: Store, runId: string): Promise<Map<number, BudgetBasis>> {
  const rows = await store.sql.records<Omit<TaskRow, "task_id" | "task">>("SELECT * FROM tasks WHERE run_id = ?", [
    runId,
  ]);
  return new Map(
    rows.map((row) => [row.task_index, { reference: row.reference_budget, optimal: row.optimal_turns ?? null }]),
  );
}

/** A task as a table of tasks shows it: its index, id and budget basis, without the task itself. */
export interface TaskHead {
  readonly index: number;
  readonly id: string;
  readonly referenceBudget: number;
  readonly optimalTurns: number | null;
}

/** Every stored task's head, in index order (a store made before optimal_turns, opened read-only, has none). */
export async function taskHeads(store: Store, runId: string): Promise<TaskHead[]> {
  const query = (optimal: string) =>
    store.sql.rows<[number, string, number, number | null]>(
      `SELECT task_index, task_id, reference_budget, ${optimal} FROM tasks WHERE run_id = ? ORDER BY task_index`,
      [runId],
    );
  const rows = await query("optimal_turns").catch(async (error: unknown) => {
    if (!String((error as Error).message).includes("optimal_turns")) throw error;
    return query("NULL");
  });
  return rows.map(([index, id, referenceBudget, optimalTurns]) => ({ index, id, referenceBudget, optimalTurns }));
}
