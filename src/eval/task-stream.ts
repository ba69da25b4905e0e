// A run's tasks as a stream, in index order and in chunks, so that no run plans all its tasks up front:
//   tasks [0, readBelow)        read back from the store (a resumed run: stored tasks are the source of truth)
//   tasks [readBelow, count)    made on demand (generated from the seed, or taken from a list in memory) and, with
//                               `persist`, stored one chunk at a time before any of them is yielded, so an episode
//                               is never committed for a task the store does not hold.
// Generated tasks are distinct, so task i depends on the ones before it: the stream hands every stored task (and its
// id) to `tasks.recall` before it makes the first new one (a resumed run draws on as the uninterrupted run did).
// `onChunk(from, to)` runs before the first task of each chunk is yielded (evaluate reads the chunk's completed
// episode keys there). Chunks are small (at most 64 tasks, fewer when each task has many episodes) so that making
// one never holds the event loop for long.
import type { BudgetScope } from "../core/budget.js";
import type { PlayableEnv } from "../core/env.js";
import { DataError } from "../core/errors.js";
import type { Store } from "../store/store.js";
import { loadTaskRange, storedTask, storeTasks, type StoredTask } from "../store/runs.js";

export interface TaskStreamOptions {
  readonly env: PlayableEnv;
  /** Tasks in the run. */
  readonly count: number;
  readonly scope: BudgetScope;
  /** Store and run of the tasks; tasks below `readBelow` are read from it. */
  readonly store?: { readonly store: Store; readonly run: string; readonly readBelow: number };
  /** Makes the tasks at index >= readBelow, in index order. */
  readonly tasks?: TaskMaker;
  /** Store made tasks (chunk by chunk, before they are yielded). */
  readonly persist?: boolean;
  /** Tasks per chunk. */
  readonly chunkSize: number;
  readonly onChunk?: (from: number, to: number) => void | Promise<void>;
}

/** Where new tasks come from: a list in memory (make only), or distinct draws (TaskDraws, which recall stored ones). */
export interface TaskMaker {
  make(index: number): unknown;
  recall?(index: number, id: string, task: unknown): void;
}

/** Tasks per chunk: at most 64, and at most about 4096 episodes' worth. */
export function taskChunkSize(episodesPerTask: number): number {
  return Math.max(1, Math.min(64, Math.floor(4096 / Math.max(1, episodesPerTask))));
}

async function storedChunk(options: TaskStreamOptions, from: number, to: number): Promise<unknown[]> {
  const where = options.store;
  if (where === undefined || from >= to) return [];
  const stored = await loadTaskRange(where.store, where.run, from, to);
  if (stored.length !== to - from)
    throw new DataError(
      `run "${where.run}" in ${where.store.location} is missing stored tasks ${from}..${to - 1}: the store was changed by another program`,
    );
  const tasks = stored.map((task) => options.env.tasks.decode(task.task));
  stored.forEach((task, offset) => options.tasks?.recall?.(task.index, task.id, tasks[offset]));
  return tasks;
}

async function madeChunk(options: TaskStreamOptions, from: number, to: number): Promise<unknown[]> {
  if (from >= to) return [];
  const maker = options.tasks;
  if (maker === undefined)
    throw new DataError(`tasks ${from}..${to - 1} of the run are neither stored nor can be made`);
  const tasks = Array.from({ length: to - from }, (_, offset) => maker.make(from + offset));
  const where = options.store;
  if (options.persist === true && where !== undefined) {
    const rows: StoredTask[] = tasks.map((task, offset) => storedTask(options.env, task, from + offset, options.scope));
    await storeTasks(where.store, where.run, rows);
  }
  return tasks;
}

export async function* streamTasks(options: TaskStreamOptions): AsyncGenerator<unknown> {
  const readBelow = options.store?.readBelow ?? 0;
  for (let from = 0; from < options.count; from += options.chunkSize) {
    const to = Math.min(options.count, from + options.chunkSize);
    const split = Math.max(from, Math.min(to, readBelow));
    const chunk = [...(await storedChunk(options, from, split)), ...(await madeChunk(options, split, to))];
    await options.onChunk?.(from, to);
    yield* chunk;
  }
}
