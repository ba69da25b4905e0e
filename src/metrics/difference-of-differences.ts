// Whether a gain depends on a condition: the difference of two paired differences on the same tasks, e.g. "RL's
// gain over the base at a generous budget minus its gain at a tight one" (does the gain shrink when the budget
// tightens?). Answering that with two separate intervals (one excluding zero, one not) is the classic error: the
// claim is about the difference between the gains, so that is what gets an interval.
//   g1_t = a1_t - b1_t,  g2_t = a2_t - b2_t    for t in S = tasks with all four values
//   dod  = mean_{t in S} (g1_t - g2_t), with a percentile bootstrap interval over S (whole tasks resampled, so each
//          task's four values stay together)
// The two gains' means come from the same resamples. Edge cases: no task with all four values gives NaN
// estimates (tasks = 0).
import { estimateFrom, resampledMeans, type Estimate, type IntervalOptions } from "./task-mean.js";
import { DEFAULT_RESAMPLES } from "./bootstrap.js";

export interface DifferenceOfDifferences {
  /** a1 - b1 over S. */
  readonly first: Estimate;
  /** a2 - b2 over S. */
  readonly second: Estimate;
  /** (a1 - b1) - (a2 - b2), paired over S. */
  readonly difference: Estimate;
  readonly shared: number;
}

type PerTask = ReadonlyMap<number, number>;

export function differenceOfDifferences(
  a1: PerTask,
  b1: PerTask,
  a2: PerTask,
  b2: PerTask,
  options: IntervalOptions = {},
): DifferenceOfDifferences {
  const shared = [...a1.keys()].filter((task) => b1.has(task) && a2.has(task) && b2.has(task)).sort((x, y) => x - y);
  const first = Float64Array.from(shared, (task) => a1.get(task)! - b1.get(task)!);
  const second = Float64Array.from(shared, (task) => a2.get(task)! - b2.get(task)!);
  const difference = first.map((value, i) => value - second[i]!);
  const [meansFirst, meansSecond, meansDifference] = resampledMeans(
    [first, second, difference],
    options.bootstrap ?? DEFAULT_RESAMPLES,
    options.seed ?? 0,
  ) as [Float64Array, Float64Array, Float64Array];
  return {
    first: estimateFrom(first, meansFirst, shared.length, options.level),
    second: estimateFrom(second, meansSecond, shared.length, options.level),
    difference: estimateFrom(difference, meansDifference, shared.length, options.level),
    shared: shared.length,
  };
}
