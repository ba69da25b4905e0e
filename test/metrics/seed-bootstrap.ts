// The interval the study's plans of version 1 used, kept here only as the reference the coverage test measures
// crossed-mean.ts against: a percentile bootstrap that resamples the seeds, then the tasks (drawn once per resample,
// as the same tasks are in every seed). With three seeds it has 10 distinct seed draws and never reaches past the
// three seeds' range, so it cannot be wide when they happen to agree (test/metrics/crossed-mean.test.ts).
import { createRng } from "../../src/core/rng.js";
import { DEFAULT_LEVEL, DEFAULT_RESAMPLES, quantile } from "../../src/metrics/bootstrap.js";
import type { IntervalOptions } from "../../src/metrics/task-mean.js";

import type { SeedValues } from "../../src/metrics/crossed-mean.js";

/** One stratum laid out for resampling: values[series][seed][task] (NaN where the seed has no value). */
interface Layout {
  readonly seeds: readonly number[];
  readonly tasks: number;
  readonly values: readonly (readonly Float64Array[])[];
}

function layOut(cells: readonly SeedValues[], stratum: string, series: number): Layout {
  const own = cells.filter((cell) => cell.stratum === stratum);
  const seeds = [...new Set(own.map((cell) => cell.seed))].sort((a, b) => a - b);
  const taskList = [...new Set(own.flatMap((cell) => [...cell.values.keys()]))].sort((a, b) => a - b);
  const position = new Map(taskList.map((task, index) => [task, index]));
  const values = Array.from({ length: series }, () => seeds.map(() => new Float64Array(taskList.length).fill(NaN)));
  own.forEach((cell) => {
    const s = seeds.indexOf(cell.seed);
    for (const [task, row] of cell.values) {
      const t = position.get(task)!;
      for (let k = 0; k < series; k++) values[k]![s]![t] = row[k] ?? NaN;
    }
  });
  return { seeds, tasks: taskList.length, values };
}

/** Mean over the chosen seeds (indices into layout.seeds) of the mean over the chosen tasks, of one series. */
function layoutMean(layout: Layout, series: number, seeds: ArrayLike<number>, tasks: ArrayLike<number>): number {
  let seedSum = 0;
  let seedCount = 0;
  for (let i = 0; i < seeds.length; i++) {
    const row = layout.values[series]![seeds[i]!]!;
    let sum = 0;
    let count = 0;
    for (let j = 0; j < tasks.length; j++) {
      const value = row[tasks[j]!]!;
      if (!Number.isNaN(value)) {
        sum += value;
        count++;
      }
    }
    if (count > 0) {
      seedSum += sum / count;
      seedCount++;
    }
  }
  return seedCount === 0 ? NaN : seedSum / seedCount;
}

const range = (length: number): Int32Array => Int32Array.from({ length }, (_, index) => index);

/** Seed and task indices drawn for one stratum. */
type Draw = readonly [seeds: Int32Array, tasks: Int32Array];

/** The mean over strata of one series on a draw per stratum; NaN when no stratum has a value. */
function drawMean(layouts: readonly Layout[], series: number, draws: readonly Draw[]): number {
  let sum = 0;
  let count = 0;
  for (let k = 0; k < layouts.length; k++) {
    const [seeds, tasks] = draws[k]!;
    const value = layoutMean(layouts[k]!, series, seeds, tasks);
    if (!Number.isNaN(value)) {
      sum += value;
      count++;
    }
  }
  return count === 0 ? NaN : sum / count;
}

/** The clustered means of `series` aligned series over `cells` (see the header), each with its interval. */
export function seedBootstrapMeans(
  cells: readonly SeedValues[],
  series: number,
  options: IntervalOptions = {},
): { value: number; low: number; high: number }[] {
  const strata = [...new Set(cells.map((cell) => cell.stratum))].sort();
  const layouts = strata.map((stratum) => layOut(cells, stratum, series));
  const allSeeds = [...new Set(cells.map((cell) => cell.seed))].sort((a, b) => a - b);
  const resamples = options.bootstrap ?? DEFAULT_RESAMPLES;
  const rng = createRng(options.seed ?? 0);
  const means = Array.from({ length: series }, () => new Float64Array(resamples));
  for (let b = 0; b < resamples; b++) {
    const drawnSeeds = Array.from({ length: allSeeds.length }, () => allSeeds[rng.int(allSeeds.length)]!);
    const draws = layouts.map((layout): Draw => [
      Int32Array.from(drawnSeeds.map((seed) => layout.seeds.indexOf(seed)).filter((index) => index >= 0)),
      Int32Array.from({ length: layout.tasks }, () => rng.int(layout.tasks)),
    ]);
    for (let k = 0; k < series; k++) means[k]![b] = drawMean(layouts, k, draws);
  }
  const whole = layouts.map((layout): Draw => [range(layout.seeds.length), range(layout.tasks)]);
  const alpha = (1 - (options.level ?? DEFAULT_LEVEL)) / 2;
  return means.map((resampled, k) => {
    const value = drawMean(layouts, k, whole);
    const finite = Float64Array.from(resampled.filter((mean) => !Number.isNaN(mean))).sort();
    const bounded = finite.length > 0 && !Number.isNaN(value);
    return {
      value,
      low: bounded ? quantile(finite, alpha) : NaN,
      high: bounded ? quantile(finite, 1 - alpha) : NaN,
    };
  });
}
