// Long-horizon resilience: success as a function of how long a task is and how much slack the budget leaves.
//   L_t      = the task's optimal length: the oracle's remaining turns at turn 1
//   lengthBin(L) = [2^b, 2^(b+1)) with b = floor(log2 L)    (1, 2-3, 4-7, 8-15, ...: hanoi with d disks,
//                                                            L = 2^d - 1, gets one bin per d)
//   ratio    = T / L_t, T the episode's budget in turns; bins split at `ratioEdges` (default 1, 1.5, 2, 3, 4:
//              "<1", "1-1.5", "1.5-2", "2-3", "3-4", ">=4"; a 25% budget of a 4x reference is ratio 1 exactly)
//   success(bin) = mean over the tasks in the bin of c_t / n_t (episode success within the budget)
// By length: one curve per budget label (and "pooled"); by ratio: every budget together. Intervals: percentile
// bootstrap over tasks (task-mean.ts).
// Edge cases: episodes whose task has no finite optimal length (not annotated, unsolvable) are counted in
// `unknown` and left out; a bin without tasks is not listed.
import type { HorizonCounts } from "../core/analysis-rows.js";
import { orderBudgetLabels } from "./budget-axis.js";
import { addRatio, cellOf, ratioEstimate, ratiosPerTask, type Estimate, type IntervalOptions, type TaskRatios } from "./task-mean.js";

export interface HorizonBin {
  readonly label: string;
  /** Bin bounds: low <= x < high (high is Infinity for the last ratio bin). */
  readonly low: number;
  readonly high: number;
  readonly estimate: Estimate;
}

export interface Horizon {
  readonly byLength: readonly { readonly budget: string; readonly bins: readonly HorizonBin[] }[];
  readonly byRatio: readonly HorizonBin[];
  /** Episodes left out for want of an optimal length. */
  readonly unknown: number;
}

export interface HorizonOptions extends IntervalOptions {
  readonly ratioEdges?: readonly number[];
}

export const DEFAULT_RATIO_EDGES: readonly number[] = [1, 1.5, 2, 3, 4];

/** Lower bound of the power-of-two bin of an optimal length (>= 1). */
export function lengthBin(length: number): number {
  return 2 ** Math.floor(Math.log2(Math.max(1, length)));
}

function lengthLabel(low: number): string {
  return low === 1 ? "1" : `${low}-${2 * low - 1}`;
}

/** Index of the ratio bin: 0 for ratio < edges[0], i for edges[i-1] <= ratio < edges[i], edges.length past the last. */
export function ratioBin(ratio: number, edges: readonly number[]): number {
  let bin = 0;
  while (bin < edges.length && ratio >= (edges[bin] as number)) bin++;
  return bin;
}

function ratioBounds(bin: number, edges: readonly number[]): { label: string; low: number; high: number } {
  const low = bin === 0 ? 0 : (edges[bin - 1] as number);
  const high = bin === edges.length ? Infinity : (edges[bin] as number);
  const label = bin === 0 ? `<${high}` : bin === edges.length ? `>=${low}` : `${low}-${high}`;
  return { label, low, high };
}

const knownLength = (row: HorizonCounts): row is HorizonCounts & { optimalLength: number } => row.optimalLength !== null && Number.isFinite(row.optimalLength) && row.optimalLength > 0;

export function horizon(rows: Iterable<HorizonCounts>, options: HorizonOptions = {}): Horizon {
  const edges = options.ratioEdges ?? DEFAULT_RATIO_EDGES;
  const byLength = new Map<string, Map<number, TaskRatios>>();
  const byRatio = new Map<number, TaskRatios>();
  let unknown = 0;
  for (const row of rows) {
    if (!knownLength(row)) {
      unknown += row.n;
      continue;
    }
    const bin = lengthBin(row.optimalLength);
    for (const budget of [row.budget, "pooled"]) {
      let curve = byLength.get(budget);
      if (curve === undefined) byLength.set(budget, (curve = new Map()));
      addRatio(cellOf(curve, bin), row.taskIndex, row.c, row.n);
    }
    addRatio(cellOf(byRatio, ratioBin(row.budgetTurns / row.optimalLength, edges)), row.taskIndex, row.c, row.n);
  }
  const budgets = [...orderBudgetLabels([...byLength.keys()].filter((label) => label !== "pooled")), ...(byLength.has("pooled") ? ["pooled"] : [])];
  return {
    byLength: budgets.map((budget) => ({
      budget,
      bins: [...(byLength.get(budget) as Map<number, TaskRatios>).entries()]
        .sort((a, b) => a[0] - b[0])
        .map(([low, cell]) => ({ label: lengthLabel(low), low, high: 2 * low, estimate: ratioEstimate(cell, options) })),
    })),
    byRatio: [...byRatio.entries()].sort((a, b) => a[0] - b[0]).map(([bin, cell]) => ({ ...ratioBounds(bin, edges), estimate: ratioEstimate(cell, options) })),
    unknown,
  };
}

/** Task -> success rate of its episodes whose optimal length falls in the bin starting at `binLow` (all budgets,
 * or one). */
export function horizonPerTask(rows: Iterable<HorizonCounts>, binLow: number, budget?: string): Map<number, number> {
  const ratios: TaskRatios = new Map();
  for (const row of rows) if (knownLength(row) && lengthBin(row.optimalLength) === binLow && (budget === undefined || row.budget === budget)) addRatio(ratios, row.taskIndex, row.c, row.n);
  return ratiosPerTask(ratios);
}
