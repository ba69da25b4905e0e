// The mean over tasks of a per-task statistic, with a percentile bootstrap interval over tasks (bootstrap.ts):
//   value = (1 / |S|) * sum_{t in S} v_t
//   interval = the (1-level)/2 and (1+level)/2 quantiles of that mean over B resamples of S with replacement
// S holds the tasks that have a value: a task with no observation in a cell is left out, never counted as 0.
// Every task weighs the same whatever its number of observations, as in Pass@(K,T). Tasks are ordered by
// index before resampling, and resample b of m tasks draws task floor(w * m / 2^32) for the words w in
// [b*m, (b+1)*m) of one seeded stream of uniform words per seed: the same input gives the same interval, cells
// of one analysis share one stream (as the cells of a Pass@(K,T) table share resamples), and a report with
// thousands of cells draws each stream once.
// Edge cases: no task gives NaN for the value and the interval; one task collapses the interval to the value;
// B = 0 gives NaN bounds.
import { createRng, deriveSeed, type Rng } from "../core/rng.js";
import { DEFAULT_LEVEL, DEFAULT_RESAMPLES, quantile } from "./bootstrap.js";
import { deleteOldest } from "../core/oldest-key.js";

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
  return Float64Array.from(tasks, (task) => perTask.get(task)!);
}

const WORD_CACHE_SEEDS = 8;
const WORD_CACHE_LIMIT = 1 << 24;
const wordCache = new Map<number, { rng: Rng; words: Uint32Array; filled: number }>();

/**
 * The first `count` words of the seed's stream of uniform 32-bit words. The stream is one sequence per seed,
 * so a longer request extends a shorter one: resamples of m tasks read its first B x m words whatever was
 * asked before. The last few seeds' prefixes are kept (up to 2^24 words each).
 */
function uniformWords(seed: number, count: number): Uint32Array {
  let entry = wordCache.get(seed);
  if (entry === undefined || (count > entry.words.length && count > WORD_CACHE_LIMIT)) {
    if (count > WORD_CACHE_LIMIT) {
      const rng = createRng(deriveSeed(seed, "resamples"));
      return Uint32Array.from({ length: count }, () => rng.nextUint32());
    }
    if (wordCache.size >= WORD_CACHE_SEEDS) deleteOldest(wordCache);
    entry = { rng: createRng(deriveSeed(seed, "resamples")), words: new Uint32Array(0), filled: 0 };
    wordCache.set(seed, entry);
  }
  if (count > entry.words.length) {
    const grown = new Uint32Array(Math.min(WORD_CACHE_LIMIT, Math.max(count, 2 * entry.words.length)));
    grown.set(entry.words.subarray(0, entry.filled));
    entry.words = grown;
  }
  for (; entry.filled < count; entry.filled++) entry.words[entry.filled] = entry.rng.nextUint32();
  return entry.words;
}

/**
 * Means of each series over B resamples of its m tasks, all series on the same resamples (series are per-task
 * values of equal length m): resample b draws task floor(w * m / 2^32) for each of the words w in
 * [b*m, (b+1)*m) of the seed's stream.
 */
export function resampledMeans(series: readonly Float64Array[], resamples: number, seed: number): Float64Array[] {
  const tasks = series[0]?.length ?? 0;
  const means = series.map(() => new Float64Array(tasks === 0 ? 0 : resamples));
  if (tasks === 0 || resamples === 0) return means;
  const words = uniformWords(seed, resamples * tasks);
  const sums = new Float64Array(series.length);
  for (let b = 0; b < resamples; b++) {
    sums.fill(0);
    const offset = b * tasks;
    for (let i = 0; i < tasks; i++) {
      const task = Math.floor((words[offset + i]! * tasks) / 4294967296);
      for (let s = 0; s < series.length; s++) sums[s] = sums[s]! + series[s]![task]!;
    }
    for (let s = 0; s < series.length; s++) means[s]![b] = sums[s]! / tasks;
  }
  return means;
}

/** Mean of values with the percentile interval of its resampled means. */
export function estimateFrom(values: Float64Array, means: Float64Array, n: number, level = DEFAULT_LEVEL): Estimate {
  if (values.length === 0) return { ...NO_ESTIMATE, n };
  let sum = 0;
  for (const value of values) sum += value;
  if (means.length === 0) return { value: sum / values.length, low: NaN, high: NaN, tasks: values.length, n };
  const sorted = Float64Array.from(means).sort();
  const alpha = (1 - level) / 2;
  return {
    value: sum / values.length,
    low: quantile(sorted, alpha),
    high: quantile(sorted, 1 - alpha),
    tasks: values.length,
    n,
  };
}

/** Mean over tasks of `perTask` (task -> value), `n` observations behind it. */
export function taskMean(perTask: ReadonlyMap<number, number>, n: number, options: IntervalOptions = {}): Estimate {
  const values = orderedValues(perTask);
  const [means] = resampledMeans([values], options.bootstrap ?? DEFAULT_RESAMPLES, options.seed ?? 0);
  return estimateFrom(values, means as Float64Array, n, options.level);
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
