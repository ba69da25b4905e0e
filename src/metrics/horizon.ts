// Long-horizon resilience: success as a function of how long a task is and how much slack the budget leaves.
//   L_t      = the task's optimal length: the oracle's remaining turns at turn 1
//   ratio    = T / L_t, T the episode's budget in turns
//   bins     = powers of two of L_t, and exact ratios or ratio ranges, each labelled by what it holds
//              (horizon-bins.ts: "6", "4-7"; "1", "2", "1.25" or "1.2-1.43")
//   success(bin) = mean over the tasks in the bin of c_t / n_t (episode success within the budget)
// By length: one curve per budget label (and "pooled"); by ratio: every budget together. Intervals: percentile
// bootstrap over tasks (task-mean.ts). The bins come from `binning` when given (built from every row to be
// compared, so that every model's curve labels a bin the same way), else from these rows.
// Edge cases: episodes whose task has no finite optimal length (not annotated, unsolvable) are counted in
// `unknown` and left out; a bin without tasks is not listed.
import type { HorizonCounts } from "../core/analysis-rows.js";
import type { BudgetSpec } from "../core/budget.js";
import { orderBudgets } from "./budget-axis.js";
import { lengthBin, lengthBinning, ratioBinning, spanOf, type BinSpan, type HorizonBinning } from "./horizon-bins.js";
import {
  addRatio,
  ratioEstimate,
  ratiosPerTask,
  type Estimate,
  type IntervalOptions,
  type TaskRatios,
} from "./task-mean.js";

/** A bin (what it holds: its label, smallest and largest value, over the rows its binning was built from) with
 * the success of the tasks in it. */
export interface HorizonBin extends BinSpan {
  readonly estimate: Estimate;
}

export interface Horizon {
  readonly byLength: readonly { readonly budget: string; readonly bins: readonly HorizonBin[] }[];
  readonly byRatio: readonly HorizonBin[];
  /** Episodes left out for want of an optimal length. */
  readonly unknown: number;
}

export interface HorizonOptions extends IntervalOptions {
  /** The bins, built from these rows and any others they are compared with (default: from these rows). */
  readonly binning?: HorizonBinning | undefined;
}

/** A row whose task has a finite optimal length (the rows horizon bins hold). */
export const knownLength = (row: HorizonCounts): row is HorizonCounts & { optimalLength: number } =>
  row.optimalLength !== null && Number.isFinite(row.optimalLength) && row.optimalLength > 0;

/** The bins of every row with a known optimal length: pass it to horizon() for each group of rows compared. */
export function horizonBinning(rows: Iterable<HorizonCounts>): HorizonBinning {
  const known = [...rows].filter(knownLength);
  return {
    lengths: lengthBinning(known.map((row) => row.optimalLength)),
    ratios: ratioBinning(known.map((row) => row.budgetTurns / row.optimalLength)),
  };
}

type BinnedCells = Map<number, { span: BinSpan; ratios: TaskRatios }>;

function addTo(cells: BinnedCells, binned: { readonly key: number; readonly span: BinSpan }, row: HorizonCounts): void {
  let cell = cells.get(binned.key);
  if (cell === undefined) cells.set(binned.key, (cell = { span: binned.span, ratios: new Map() }));
  addRatio(cell.ratios, row.taskIndex, row.c, row.n);
}

const binsOf = (cells: BinnedCells, options: IntervalOptions): HorizonBin[] =>
  [...cells.entries()]
    .sort((a, b) => a[0] - b[0])
    .map(([, cell]) => ({ ...cell.span, estimate: ratioEstimate(cell.ratios, options) }));

export function horizon(rows: Iterable<HorizonCounts>, options: HorizonOptions = {}): Horizon {
  const all = [...rows];
  const binning = options.binning ?? horizonBinning(all);
  const byLength = new Map<string, BinnedCells>();
  const byRatio: BinnedCells = new Map();
  const curves: BudgetSpec[] = [];
  let unknown = 0;
  for (const row of all) {
    if (!knownLength(row)) {
      unknown += row.n;
      continue;
    }
    const length = spanOf(binning.lengths, row.optimalLength);
    curves.push(row.budget);
    for (const budget of [row.budget.label, "pooled"]) {
      let curve = byLength.get(budget);
      if (curve === undefined) byLength.set(budget, (curve = new Map()));
      addTo(curve, length, row);
    }
    addTo(byRatio, spanOf(binning.ratios, row.budgetTurns / row.optimalLength), row);
  }
  const budgets = [...orderBudgets(curves).map((spec) => spec.label), ...(byLength.has("pooled") ? ["pooled"] : [])];
  return {
    byLength: budgets.map((budget) => ({ budget, bins: binsOf(byLength.get(budget)!, options) })),
    byRatio: binsOf(byRatio, options),
    unknown,
  };
}

/** Task -> success rate of its episodes whose optimal length falls in the bin starting at `binLow` (all budgets,
 * or one, by its label). */
export function horizonPerTask(rows: Iterable<HorizonCounts>, binLow: number, budget?: string): Map<number, number> {
  const ratios: TaskRatios = new Map();
  for (const row of rows)
    if (
      knownLength(row) &&
      lengthBin(row.optimalLength) === binLow &&
      (budget === undefined || row.budget.label === budget)
    )
      addRatio(ratios, row.taskIndex, row.c, row.n);
  return ratiosPerTask(ratios);
}
