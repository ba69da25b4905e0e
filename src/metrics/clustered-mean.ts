// Means over strata (envs), seeds and tasks, with a percentile bootstrap that resamples seeds, then tasks: the
// interval of a study whose every model was trained again per seed, and evaluated on the same held-out tasks in
// every seed. Data: per stratum k, per seed s, per task t, one value per series (the series of one comparison,
// e.g. a - b, a and b, stay aligned so their means come from the same resamples).
//   value = mean_k  mean_{s in seeds(k)}  mean_{t in tasks(k, s)} v_{k,s,t}
// Each stratum weighs the same, each seed the same within it, each task the same within a seed. A resample draws
// the seeds with replacement (one draw for every stratum: a seed is one replicate of the whole pipeline), and the
// tasks of each stratum with replacement (one draw for every seed: the tasks are crossed with the seeds, the same
// held-out tasks in every seed, so a task's difficulty is shared by the seeds and must be resampled once), then
// takes the mean above over the drawn seeds and tasks. With one seed it is the task bootstrap of task-mean.ts; with
// one stratum the strata do nothing. (rliable's stratified bootstrap resamples runs within tasks; here a run is a
// seed of the whole study, and tasks are drawn once per resample, as the crossed design asks.)
// Edge cases: no value anywhere gives NaN; a stratum whose drawn seeds all lack it is left out of that resample;
// B = 0 gives NaN bounds.
import { createRng } from "../core/rng.js";
import { DEFAULT_LEVEL, DEFAULT_RESAMPLES, quantile } from "./bootstrap.js";
import type { Estimate, IntervalOptions } from "./task-mean.js";

/** The per-task values of one stratum in one seed: task -> one value per series. */
export interface SeedValues {
  readonly stratum: string;
  readonly seed: number;
  readonly values: ReadonlyMap<number, readonly number[]>;
}

/** A mean with its interval; `seeds` distinct seeds and `tasks` distinct (stratum, task) pairs behind it, `n`
 * (seed, task) cells. */
export interface ClusteredEstimate extends Estimate {
  readonly seeds: number;
}

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
export function clusteredMeans(
  cells: readonly SeedValues[],
  series: number,
  options: IntervalOptions = {},
): ClusteredEstimate[] {
  const strata = [...new Set(cells.map((cell) => cell.stratum))].sort();
  const layouts = strata.map((stratum) => layOut(cells, stratum, series));
  const allSeeds = [...new Set(cells.map((cell) => cell.seed))].sort((a, b) => a - b);
  const tasks = layouts.reduce((sum, layout) => sum + layout.tasks, 0);
  const n = cells.reduce((sum, cell) => sum + cell.values.size, 0);
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
      tasks,
      n,
      seeds: allSeeds.length,
    };
  });
}
