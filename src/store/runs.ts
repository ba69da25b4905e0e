// Runs and their tasks in the store. A run records everything needed to resume it or recompute its tables:
// its config (as JSON), seed, code version, and the exact task list. A task file or dataset is stored whole when
// the run starts; generated tasks are stored in chunks as the run reaches them (before their first episode), so a
// run of a billion tasks never plans them all up front. Stored tasks are the source of truth: a resumed run reads
// them back and never regenerates one.
import { evalResumeCommand } from "../core/commands.js";
import { DataError } from "../core/errors.js";
import type { Json } from "../core/json.js";
import type { Store } from "./open.js";

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
}

interface RunRow {
  id: string;
  created_at: string;
  env: string;
  policy: string;
  seed: number;
  config: string;
  code_version: string;
  status: string;
}

function toRecord(row: RunRow): RunRecord {
  return { id: row.id, createdAt: row.created_at, env: row.env, policy: row.policy, seed: row.seed, config: JSON.parse(row.config) as Json, codeVersion: row.code_version, status: row.status as RunStatus };
}

export function runExists(store: Store, id: string): boolean {
  return store.db.prepare("SELECT 1 FROM runs WHERE id = ?").get(id) !== undefined;
}

/** Store a new run with the tasks known at its start (all of a task file or dataset; none when tasks are generated
 * as the run reaches them, see `storeTasks`). Refuses a name already taken. */
export function createRun(store: Store, record: RunRecord, tasks: Iterable<StoredTask>): void {
  const insertRun = store.db.prepare("INSERT INTO runs (id, created_at, env, policy, seed, config, code_version, status) VALUES (?, ?, ?, ?, ?, ?, ?, ?)");
  store.db
    .transaction(() => {
      if (runExists(store, record.id)) {
        throw new DataError(`run "${record.id}" already exists in ${store.path}`, `pick another --run name, or continue it with: ${evalResumeCommand(record.id, store.path)}`);
      }
      insertRun.run(record.id, record.createdAt, record.env, record.policy, record.seed, JSON.stringify(record.config), record.codeVersion, record.status);
      insertTasks(store, record.id, tasks);
    })
    .immediate();
}

function insertTasks(store: Store, runId: string, tasks: Iterable<StoredTask>): void {
  const insertTask = store.db.prepare("INSERT OR IGNORE INTO tasks (run_id, task_index, task_id, task, reference_budget) VALUES (?, ?, ?, ?, ?)");
  for (const task of tasks) insertTask.run(runId, task.index, task.id, JSON.stringify(task.task), task.referenceBudget);
}

/** Add tasks to a run as it reaches them (generated tasks are stored in chunks, before their first episode). */
export function storeTasks(store: Store, runId: string, tasks: Iterable<StoredTask>): void {
  store.db.transaction(() => insertTasks(store, runId, tasks)).immediate();
}

export function getRun(store: Store, id: string): RunRecord {
  const row = store.db.prepare("SELECT * FROM runs WHERE id = ?").get(id) as RunRow | undefined;
  if (row === undefined) {
    const known = listRuns(store).map((run) => run.id);
    throw new DataError(`no run "${id}" in ${store.path}`, known.length === 0 ? "the store has no runs yet" : `runs here: ${known.slice(-10).join(", ")}`);
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

export function listRuns(store: Store): RunSummary[] {
  const rows = store.db
    .prepare(
      `SELECT r.*, COALESCE(e.episodes, 0) AS episodes, COALESCE(e.successes, 0) AS successes, COALESCE(e.errors, 0) AS errors,
         COALESCE(e.context_length, 0) AS context_length
       FROM runs r LEFT JOIN (SELECT run_id, COUNT(*) AS episodes, SUM(success) AS successes, SUM(stop_reason = 'error') AS errors,
         SUM(stop_reason = 'context_length') AS context_length FROM episodes GROUP BY run_id) e
       ON e.run_id = r.id ORDER BY r.created_at, r.id`,
    )
    .all() as (RunRow & { episodes: number; successes: number; errors: number; context_length: number })[];
  return rows.map((row) => ({ ...toRecord(row), episodes: row.episodes, successes: row.successes, errors: row.errors, contextLength: row.context_length }));
}

/** The most recently created run, if any. */
export function latestRunId(store: Store): string | undefined {
  const row = store.db.prepare("SELECT id FROM runs ORDER BY created_at DESC, rowid DESC LIMIT 1").get() as { id: string } | undefined;
  return row?.id;
}

export function setRunStatus(store: Store, id: string, status: RunStatus): void {
  store.db.prepare("UPDATE runs SET status = ? WHERE id = ?").run(status, id);
}

interface TaskRow {
  task_index: number;
  task_id: string;
  task: string;
  reference_budget: number;
}

function toStoredTask(row: TaskRow): StoredTask {
  return { index: row.task_index, id: row.task_id, task: JSON.parse(row.task) as Json, referenceBudget: row.reference_budget };
}

export function loadTasks(store: Store, runId: string): StoredTask[] {
  const rows = store.db.prepare("SELECT task_index, task_id, task, reference_budget FROM tasks WHERE run_id = ? ORDER BY task_index").all(runId) as TaskRow[];
  return rows.map(toStoredTask);
}

/** The stored tasks with index in [from, to), in order. */
export function loadTaskRange(store: Store, runId: string, from: number, to: number): StoredTask[] {
  const rows = store.db.prepare("SELECT task_index, task_id, task, reference_budget FROM tasks WHERE run_id = ? AND task_index >= ? AND task_index < ? ORDER BY task_index").all(runId, from, to) as TaskRow[];
  return rows.map(toStoredTask);
}

/** How many tasks a run has stored (they are stored in index order, so they are tasks 0 .. count-1). */
export function storedTaskCount(store: Store, runId: string): number {
  return store.db.prepare("SELECT COUNT(*) FROM tasks WHERE run_id = ?").pluck().get(runId) as number;
}

/** Reference budget of every stored task, by index (without reading the tasks themselves). */
export function referenceBudgets(store: Store, runId: string): Map<number, number> {
  const rows = store.db.prepare("SELECT task_index, reference_budget FROM tasks WHERE run_id = ?").raw().all(runId) as [number, number][];
  return new Map(rows);
}
