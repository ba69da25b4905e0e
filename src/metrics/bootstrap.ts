// Percentile bootstrap over tasks: resample the task set with replacement B times (seeded), take the mean of a
// per-task statistic in each resample, report the 2.5th and 97.5th percentiles (for a 95% interval). All cells
// of a table share the same resamples, so their intervals are comparable. With one task the interval collapses
// to the point; B = 0 disables intervals.
import { createRng } from "../core/rng.js";

/** Bootstrap resamples (B) when none are asked for. */
export const DEFAULT_RESAMPLES = 1000;
/** Interval level when none is asked for. */
export const DEFAULT_LEVEL = 0.95;

/** B resamples of task indices, as one flat Int32Array of B x tasks. */
export function bootstrapIndices(tasks: number, resamples: number, seed: number): Int32Array {
  const rng = createRng(seed);
  const out = new Int32Array(tasks * resamples);
  for (let i = 0; i < out.length; i++) out[i] = rng.int(tasks);
  return out;
}

export interface Interval {
  readonly low: number;
  readonly high: number;
}

/** Percentile interval of the mean of `values` (one per task) over the given resamples. */
export function bootstrapInterval(values: Float64Array, indices: Int32Array, level = DEFAULT_LEVEL): Interval {
  const tasks = values.length;
  if (tasks === 0) return { low: NaN, high: NaN };
  const resamples = Math.floor(indices.length / tasks);
  if (resamples === 0) return { low: NaN, high: NaN };
  const means = new Float64Array(resamples);
  for (let b = 0; b < resamples; b++) {
    let sum = 0;
    const offset = b * tasks;
    for (let i = 0; i < tasks; i++) sum += values[indices[offset + i]!]!;
    means[b] = sum / tasks;
  }
  means.sort();
  const alpha = (1 - level) / 2;
  return { low: quantile(means, alpha), high: quantile(means, 1 - alpha) };
}

/** Linear-interpolation quantile of sorted values (numpy's default). */
export function quantile(sorted: Float64Array, q: number): number {
  const position = (sorted.length - 1) * q;
  const lower = Math.floor(position);
  const upper = Math.ceil(position);
  const a = sorted[lower]!;
  const b = sorted[upper]!;
  return a + (b - a) * (position - lower);
}
