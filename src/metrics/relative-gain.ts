// The relative view of a paired comparison: how much higher a's mean is than b's, as a fraction of b's, on the
// tasks both were scored on.
//   relative = mean_{t in S} a_t / mean_{t in S} b_t - 1      (S = tasks(a) ∩ tasks(b))
// with a percentile bootstrap interval over S (each resample's ratio of means: per-task ratios would explode on
// tasks where b_t = 0, which at tight budgets are most tasks). A gain of 2 points reads very differently on a
// base of 3% (+67%) and of 60% (+3%): the paper's Table 1 is read both ways.
// Edge cases: no shared task, or b's mean 0 over S, gives NaN (a resample whose b-mean is 0 counts as +Infinity,
// so the interval widens rather than lies).
import { DEFAULT_LEVEL, DEFAULT_RESAMPLES, quantile } from "./bootstrap.js";
import { NO_ESTIMATE, resampledMeans, type Estimate, type IntervalOptions } from "./task-mean.js";

export function relativeGain(
  a: ReadonlyMap<number, number>,
  b: ReadonlyMap<number, number>,
  options: IntervalOptions = {},
): Estimate {
  const shared = [...a.keys()].filter((task) => b.has(task)).sort((x, y) => x - y);
  if (shared.length === 0) return NO_ESTIMATE;
  const valuesA = Float64Array.from(shared, (task) => a.get(task)!);
  const valuesB = Float64Array.from(shared, (task) => b.get(task)!);
  const mean = (values: Float64Array): number => values.reduce((sum, value) => sum + value, 0) / values.length;
  const ratio = (meanA: number, meanB: number): number =>
    meanB === 0 ? (meanA === 0 ? 0 : Infinity) : meanA / meanB - 1;
  const value = mean(valuesB) === 0 ? NaN : mean(valuesA) / mean(valuesB) - 1;
  const [meansA, meansB] = resampledMeans(
    [valuesA, valuesB],
    options.bootstrap ?? DEFAULT_RESAMPLES,
    options.seed ?? 0,
  ) as [Float64Array, Float64Array];
  if (meansA.length === 0 || Number.isNaN(value))
    return { value, low: NaN, high: NaN, tasks: shared.length, n: shared.length };
  // Infinite ratios sort last as the largest finite float, so the interpolation between two of them stays finite.
  const ratios = Float64Array.from(meansA, (meanA, i) => Math.min(ratio(meanA, meansB[i]!), Number.MAX_VALUE)).sort();
  const alpha = (1 - (options.level ?? DEFAULT_LEVEL)) / 2;
  const bound = (q: number): number => {
    const at = quantile(ratios, q);
    return at > 1e300 ? Infinity : at;
  };
  return { value, low: bound(alpha), high: bound(1 - alpha), tasks: shared.length, n: shared.length };
}
