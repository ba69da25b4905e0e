// Paired comparison of two models on the same tasks: the difference of a per-task statistic (Pass@(K,T),
// step quality, recovery, ...) on the tasks both were scored on.
//   d_t = a_t - b_t  for t in S = tasks(a) ∩ tasks(b)
//   difference = mean_{t in S} d_t, with a percentile bootstrap interval over S (a resample draws whole tasks,
//   so each task's a_t and b_t stay together and its difficulty cancels out of d_t)
// The means of a and b over S come from the same resamples. This is the comparison to report, not whether two
// separately computed intervals overlap: overlapping intervals can hide a consistent per-task gain.
// `sharedSeeds` is for the caller to state whether the two runs also shared sampling seeds.
// Edge cases: no shared task gives NaN estimates (shared = 0); tasks only one side has are counted, not used.
import { estimateFrom, resampledMeans, type Estimate, type IntervalOptions } from "./task-mean.js";
import { DEFAULT_RESAMPLES } from "./bootstrap.js";

export interface PairedDifference {
  readonly a: Estimate;
  readonly b: Estimate;
  /** a - b, paired over shared tasks. */
  readonly difference: Estimate;
  readonly shared: number;
  readonly onlyA: number;
  readonly onlyB: number;
}

export function pairedDifference(
  a: ReadonlyMap<number, number>,
  b: ReadonlyMap<number, number>,
  options: IntervalOptions = {},
): PairedDifference {
  const shared = [...a.keys()].filter((task) => b.has(task)).sort((x, y) => x - y);
  const valuesA = Float64Array.from(shared, (task) => a.get(task)!);
  const valuesB = Float64Array.from(shared, (task) => b.get(task)!);
  const differences = valuesA.map((value, i) => value - valuesB[i]!);
  const [meansA, meansB, meansDifference] = resampledMeans(
    [valuesA, valuesB, differences],
    options.bootstrap ?? DEFAULT_RESAMPLES,
    options.seed ?? 0,
  ) as [Float64Array, Float64Array, Float64Array];
  return {
    a: estimateFrom(valuesA, meansA, shared.length, options.level),
    b: estimateFrom(valuesB, meansB, shared.length, options.level),
    difference: estimateFrom(differences, meansDifference, shared.length, options.level),
    shared: shared.length,
    onlyA: a.size - shared.length,
    onlyB: b.size - shared.length,
  };
}

/** How an interval of a difference reads: above zero, below zero, containing zero, or no data. */
export type DifferenceDirection = "higher" | "lower" | "unclear" | "no data";

export function differenceDirection(difference: Estimate): DifferenceDirection {
  if (difference.tasks === 0 || Number.isNaN(difference.value)) return "no data";
  if (Number.isNaN(difference.low)) return "unclear";
  if (difference.low > 0) return "higher";
  if (difference.high < 0) return "lower";
  return "unclear";
}
