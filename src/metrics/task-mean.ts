// The mean over tasks of a per-task statistic, with a percentile bootstrap interval over tasks (bootstrap.ts):
//   value = (1 / |S|) * sum_{t in S} v_t
//   interval = the (1-level)/2 and (1+level)/2 quantiles of that mean over B resamples of S with replacement
// S holds the tasks that have a value: a task with no observation in a cell is left out, never counted as 0.
// Every task weighs the same whatever its number of observations, as in Pass@(K,T). Tasks are ordered by
// index before resampling and the resamples are seeded by (seed, number of tasks), so the same input gives the
// same interval, and cells of one analysis with as many tasks share their resamples (as the cells of a
// Pass@(K,T) table do), which keeps a report with thousands of cells fast.
// Edge cases: no task gives NaN for the value and the interval; one task collapses the interval to the value;
// B = 0 gives NaN bounds.
import { deriveSeed } from "../core/rng.js";
import { bootstrapIndices, bootstrapInterval } from "./bootstrap.js";

/** A mean over tasks with its interval: `tasks` tasks behind it, `n` observations (episodes or turns). */
export interface Estimate {
  readonly value: number;
  readonly low: number;
  readonly high: number;
  readonly tasks: number;
  readonly n: number;
}

export interface IntervalOptions {
  /** Bootstrap resamples (0: no interval). Default 1000. */
  readonly bootstrap?: number;
  readonly seed?: number;
  /** Interval level. Default 0.95. */
  readonly level?: number;
}

export const NO_ESTIMATE: Estimate = Object.freeze({ value: NaN, low: NaN, high: NaN, tasks: 0, n: 0 });

/** Per-task values in task order, as a Float64Array. */
export function orderedValues(perTask: ReadonlyMap<number, number>): Float64Array {
  const tasks = [...perTask.keys()].sort((a, b) => a - b);
  return Float64Array.from(tasks, (task) => perTask.get(task) as number);
}

/** Mean of values with the bootstrap interval of the given resamples. */
export function meanWithInterval(values: Float64Array, indices: Int32Array, n: number, level?: number): Estimate {
  if (values.length === 0) return { ...NO_ESTIMATE, n };
  let sum = 0;
  for (const value of values) sum += value;
  const interval = bootstrapInterval(values, indices, level);
  return { value: sum / values.length, low: interval.low, high: interval.high, tasks: values.length, n };
}

const recentResamples = new Map<string, Int32Array>();

/** B resamples of `tasks` task positions, seeded by (seed, tasks); the last few are kept for reuse. */
export function taskResamples(tasks: number, resamples: number, seed: number): Int32Array {
  const key = `${tasks}:${resamples}:${seed}`;
  let indices = recentResamples.get(key);
  if (indices === undefined) {
    if (recentResamples.size >= 64) recentResamples.delete(recentResamples.keys().next().value as string);
    indices = bootstrapIndices(tasks, tasks === 0 ? 0 : resamples, deriveSeed(seed, "tasks", tasks));
    recentResamples.set(key, indices);
  }
  return indices;
}

/** Mean over tasks of `perTask` (task -> value), `n` observations behind it. */
export function taskMean(perTask: ReadonlyMap<number, number>, n: number, options: IntervalOptions = {}): Estimate {
  const values = orderedValues(perTask);
  return meanWithInterval(values, taskResamples(values.length, options.bootstrap ?? 1000, options.seed ?? 0), n, options.level);
}

/** Hits and trials per task of one cell; a task's value is its ratio hits / trials over everything added. */
export type TaskRatios = Map<number, { hits: number; trials: number }>;

export function addRatio(ratios: TaskRatios, task: number, hits: number, trials: number): void {
  if (trials <= 0) return;
  const entry = ratios.get(task);
  if (entry === undefined) ratios.set(task, { hits, trials });
  else {
    entry.hits += hits;
    entry.trials += trials;
  }
}

/** Task -> hits / trials. */
export function ratiosPerTask(ratios: TaskRatios): Map<number, number> {
  const out = new Map<number, number>();
  for (const [task, entry] of ratios) out.set(task, entry.hits / entry.trials);
  return out;
}

/** The mean over tasks of their ratios, with `n` = all trials. */
export function ratioEstimate(ratios: TaskRatios, options: IntervalOptions = {}): Estimate {
  let n = 0;
  for (const entry of ratios.values()) n += entry.trials;
  return taskMean(ratiosPerTask(ratios), n, options);
}

/** The ratios of one cell of a keyed collection, created on first use. */
export function cellOf<Key>(cells: Map<Key, TaskRatios>, key: Key): TaskRatios {
  let cell = cells.get(key);
  if (cell === undefined) cells.set(key, (cell = new Map()));
  return cell;
}
