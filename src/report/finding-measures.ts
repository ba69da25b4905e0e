// What the findings measure. A statistic is one model's per-task value on an env (Pass@1 at a budget, step quality
// on the expert's states, success after an error forced on them, success on the env's longest tasks); a contrast
// sets two models against each other on it (a - b), or on two of them (the difference of two gains); a measure is a
// contrast read at one budget or pooled over several (per task, the mean over the budgets it has). A measure is
// estimated over a scope, some envs and some seeds, with the interval over seeds and tasks of metrics/crossed-mean.ts,
// each env weighing the same. It enters a verdict on an env only where every statistic it uses can move there: the
// oracle and a random policy differ on it by the plan's minimum range (the study's ranges, measured before any
// training); budgets where it cannot are left out of a pooled measure, and a measure left with none is reported as
// unable to move.
import { crossedMeans, type CrossedEstimate, type SeedValues } from "../metrics/crossed-mean.js";
import { taskMean } from "../metrics/task-mean.js";

export const STATISTIC_KINDS = ["pass", "step-quality", "recovery", "long-tasks"] as const;
export type StatisticKind = (typeof STATISTIC_KINDS)[number];

export interface Statistic {
  readonly kind: StatisticKind;
  readonly mode: "announced" | "hidden";
  readonly budget: string;
}

/** Task -> a model's value of a statistic on an env, in one seed (empty: not measured). */
export type StatisticValues = (model: string, env: string, statistic: Statistic) => ReadonlyMap<number, number>;

export type Contrast =
  | { readonly kind: "difference"; readonly statistic: Statistic }
  | { readonly kind: "difference of differences"; readonly first: Statistic; readonly second: Statistic };

/** A contrast at one budget, or the same contrast at several budgets pooled (one contrast per budget). */
export interface Measure {
  readonly name: string;
  readonly contrasts: readonly Contrast[];
}

export interface Scope {
  readonly envs: readonly string[];
  readonly seeds: readonly number[];
}

/** The spread of a statistic on an env: the oracle's and the random policy's means on the held-out tasks. */
export interface StatisticRange {
  readonly env: string;
  readonly statistic: Statistic;
  readonly oracle: number | null;
  readonly random: number | null;
  readonly moves: boolean;
}

export const NAMES: Readonly<Record<StatisticKind, string>> = {
  pass: "Pass@1",
  "step-quality": "step quality",
  recovery: "success after a forced error",
  "long-tasks": "success on the longest tasks",
};

export const statisticsOf = (contrast: Contrast): readonly Statistic[] =>
  contrast.kind === "difference" ? [contrast.statistic] : [contrast.first, contrast.second];

export const statisticKey = (statistic: Statistic): string => `${statistic.kind}:${statistic.mode}:${statistic.budget}`;

/** The ranges of the statistics a measure uses on an env, from the oracle's and random policy's values (null:
 * not measured, then every statistic counts as moving). */
export function statisticRange(
  references: StatisticValues | null,
  env: string,
  statistic: Statistic,
  minimum: number,
): StatisticRange {
  if (references === null) return { env, statistic, oracle: null, random: null, moves: true };
  // Ranges are measured with the budget announced: what the env lets a policy do does not depend on being told.
  const measured = { ...statistic, mode: "announced" as const };
  const mean = (model: string): number | null => {
    const values = references(model, env, measured);
    return values.size === 0 ? null : taskMean(values, values.size, { bootstrap: 0 }).value;
  };
  const oracle = mean("oracle");
  const random = mean("random");
  const moves = oracle === null || random === null ? true : Math.abs(oracle - random) >= minimum - 1e-12;
  return { env, statistic, oracle, random, moves };
}

/** Per task: [contrast, first side, second side] (a - b, a, b; or the two gains of a difference of differences). */
function contrastValues(
  values: StatisticValues,
  a: string,
  b: string,
  env: string,
  contrast: Contrast,
): Map<number, readonly [number, number, number]> {
  const out = new Map<number, readonly [number, number, number]>();
  if (contrast.kind === "difference") {
    const valuesA = values(a, env, contrast.statistic);
    const valuesB = values(b, env, contrast.statistic);
    for (const [task, value] of valuesA) {
      const other = valuesB.get(task);
      if (other !== undefined) out.set(task, [value - other, value, other]);
    }
    return out;
  }
  const [a1, b1, a2, b2] = [
    values(a, env, contrast.first),
    values(b, env, contrast.first),
    values(a, env, contrast.second),
    values(b, env, contrast.second),
  ];
  for (const [task, value] of a1) {
    const [other1, other2, value2] = [b1.get(task), b2.get(task), a2.get(task)];
    if (other1 === undefined || other2 === undefined || value2 === undefined) continue;
    const first = value - other1;
    const second = value2 - other2;
    out.set(task, [first - second, first, second]);
  }
  return out;
}

/** Per task, the mean of each series over the contrasts the task has (a measure pooled over budgets). */
function pooledValues(perContrast: readonly Map<number, readonly number[]>[]): Map<number, readonly number[]> {
  const sums = new Map<number, { sums: number[]; count: number }>();
  for (const map of perContrast)
    for (const [task, row] of map) {
      const entry = sums.get(task) ?? { sums: row.map(() => 0), count: 0 };
      row.forEach((value, index) => (entry.sums[index] = entry.sums[index]! + value));
      entry.count++;
      sums.set(task, entry);
    }
  return new Map([...sums].map(([task, entry]) => [task, entry.sums.map((sum) => sum / entry.count)]));
}

export interface MeasureResult {
  /** The contrast (a - b, or gain minus gain), and its two sides, on the same resamples. */
  readonly difference: CrossedEstimate;
  readonly sideA: CrossedEstimate;
  readonly sideB: CrossedEstimate;
  /** Envs of the scope where the measure can move and has values (the others are left out). */
  readonly envs: readonly string[];
  /** Budgets left out on an env because a statistic cannot move there ("vault 1.5x"). */
  readonly leftOut: readonly string[];
  /** Whether the two models tie on every task in every seed (a contrast of exactly 0 everywhere, e.g. both 0%). */
  readonly tied: boolean;
}

export interface MeasureContext {
  readonly seeds: readonly { readonly seed: number; readonly values: StatisticValues }[];
  readonly moves: (env: string, statistic: Statistic) => boolean;
  readonly level: number;
}

/** A measure of a - b over a scope. */
export function estimateMeasure(
  context: MeasureContext,
  measure: Measure,
  a: string,
  b: string,
  scope: Scope,
): MeasureResult {
  const cells: SeedValues[] = [];
  const envs: string[] = [];
  const leftOut: string[] = [];
  for (const env of scope.envs) {
    const moving = measure.contrasts.filter((contrast) =>
      statisticsOf(contrast).every((statistic) => context.moves(env, statistic)),
    );
    for (const contrast of measure.contrasts)
      if (!moving.includes(contrast)) leftOut.push(`${env} ${statisticsOf(contrast)[0]?.budget ?? ""}`.trim());
    if (moving.length === 0) continue;
    const before = cells.length;
    for (const { seed, values } of context.seeds) {
      if (!scope.seeds.includes(seed)) continue;
      const pooled = pooledValues(moving.map((contrast) => contrastValues(values, a, b, env, contrast)));
      if (pooled.size > 0) cells.push({ stratum: env, seed, values: pooled });
    }
    // An env counts where the measure moves and has values (budgets with no runs, such as recovery at the tightest,
    // leave the others to decide whether it moves there).
    if (cells.length > before) envs.push(env);
  }
  const [difference, sideA, sideB] = crossedMeans(cells, 3, { level: context.level }) as [
    CrossedEstimate,
    CrossedEstimate,
    CrossedEstimate,
  ];
  const tied = cells.length > 0 && cells.every((cell) => [...cell.values.values()].every((row) => row[0] === 0));
  return { difference, sideA, sideB, envs, leftOut, tied };
}
