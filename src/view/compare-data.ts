// The comparison of two or more runs on the same tasks (matched by task id, as common random numbers give every model
// the same tasks with the same dice): per budget both runs share, the paired difference of each run's Pass@1 from the
// first run's (metrics/paired-difference.ts: the per-task differences averaged, a bootstrap interval over tasks), and
// at one budget the per-task table (each run's success rate, the differences), sorted by how far the runs part.
import type { OutcomeCounts } from "../core/outcome.js";
import { countsOf, storedRunOutcomes } from "../eval/table.js";
import { pairedDifference, type PairedDifference } from "../metrics/paired-difference.js";
import { taskHeads } from "../store/runs.js";
import type { Store } from "../store/store.js";
import type { RunFacts } from "./run-facts.js";

/** A run being compared, with its success rate per (task id, budget label). */
export interface ComparedRun {
  readonly facts: RunFacts;
  /** task id -> budget label -> successes / samples. */
  readonly rates: ReadonlyMap<string, ReadonlyMap<string, number>>;
  /** task id -> task index in this run. */
  readonly indices: ReadonlyMap<string, number>;
}

export interface BudgetDifferences {
  readonly budget: string;
  /** One per run after the first: that run minus the first, paired over shared tasks. */
  readonly differences: readonly PairedDifference[];
}

export interface CompareTaskRow {
  readonly taskId: string;
  /** Per run, its success rate at the budget (undefined: the run lacks the task or its episodes). */
  readonly rates: readonly (number | undefined)[];
  /** The largest |difference| from the first run (NaN when no other run has the task). */
  readonly spread: number;
}

function ratesOf(
  counts: readonly OutcomeCounts[],
  idOf: ReadonlyMap<number, string>,
): Map<string, Map<string, number>> {
  const rates = new Map<string, Map<string, number>>();
  for (const { taskIndex, budget, n, c } of counts) {
    if (n === 0) continue;
    const id = idOf.get(taskIndex) ?? String(taskIndex);
    let row = rates.get(id);
    if (row === undefined) rates.set(id, (row = new Map()));
    row.set(budget, c / n);
  }
  return rates;
}

/** A run's rates; its config must be readable. */
export async function comparedRun(store: Store, facts: RunFacts): Promise<ComparedRun> {
  const config = facts.config!;
  const heads = await taskHeads(store, facts.record.id);
  const outcomes = await storedRunOutcomes(store, facts.record.id, config);
  const idOf = new Map(heads.map((head) => [head.index, head.id]));
  return {
    facts,
    rates: ratesOf(countsOf(config, outcomes), idOf),
    indices: new Map(heads.map((head) => [head.id, head.index])),
  };
}

/** The budgets every run has, in the first run's axis order. */
export function sharedBudgets(runs: readonly ComparedRun[]): string[] {
  const [first, ...others] = runs.map((run) => run.facts.config!.budgets.map((spec) => spec.label));
  return (first ?? []).filter((label) => others.every((labels) => labels.includes(label)));
}

/** The rates at one budget, keyed by the first run's task numbering (tasks it lacks after those). */
function keyedRates(run: ComparedRun, budget: string, keys: ReadonlyMap<string, number>): Map<number, number> {
  const out = new Map<number, number>();
  for (const [id, row] of run.rates) {
    const rate = row.get(budget);
    const key = keys.get(id);
    if (rate !== undefined && key !== undefined) out.set(key, rate);
  }
  return out;
}

export function budgetDifferences(
  runs: readonly ComparedRun[],
  budget: string,
  options: { readonly bootstrap: number; readonly seed: number },
): BudgetDifferences {
  const [first, ...others] = runs;
  const ids = [...new Set(runs.flatMap((run) => [...run.rates.keys()]))];
  const keys = new Map(ids.map((id, at) => [id, at]));
  const base = first === undefined ? new Map<number, number>() : keyedRates(first, budget, keys);
  return {
    budget,
    differences: others.map((run) => pairedDifference(keyedRates(run, budget, keys), base, options)),
  };
}

/** Each task at one budget: every run's rate and how far the runs part, largest first (then by task id). */
export function compareTaskRows(runs: readonly ComparedRun[], budget: string): CompareTaskRow[] {
  const ids = [...new Set(runs.flatMap((run) => [...run.rates.keys()]))];
  const rows = ids.map((taskId) => {
    const rates = runs.map((run) => run.rates.get(taskId)?.get(budget));
    const [first, ...others] = rates;
    const gaps = others.flatMap((rate) => (rate === undefined || first === undefined ? [] : [Math.abs(rate - first)]));
    return { taskId, rates, spread: gaps.length === 0 ? NaN : Math.max(...gaps) };
  });
  const spreadOf = (row: CompareTaskRow): number => (Number.isNaN(row.spread) ? -1 : row.spread);
  return rows.sort((a, b) => spreadOf(b) - spreadOf(a) || a.taskId.localeCompare(b.taskId));
}
