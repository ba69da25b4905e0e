// Perturbation recovery: force one random non-optimal action at turn j, hand control back, and compare success
// within the remaining budget with the same episode left alone. The two runs share tasks, budgets, samples and
// seeds, so until turn j both episodes saw exactly the same states; the comparison is paired:
//   pair     = (perturbed episode, control episode) with equal (task, budget label, sample) and equal seeds,
//              both of which reached turn j (an episode that ended before j was never perturbed) and whose
//              turn j was forced (when every valid action at j was optimal, nothing could be forced)
//   d_t(j)   = mean over task t's pairs of (success_perturbed - success_control)
//   drop(j)  = mean over tasks of d_t(j), with a paired percentile bootstrap interval over tasks (resampling a
//              task keeps its pairs together); perturbed(j) and control(j) are the two success rates on the
//              same resamples
// Cells: per (j, budget label) and per j over every budget ("pooled"). Pairs that cannot be used are counted by
// status: no control episode, seeds differ (the runs were not made with the same seed), or turn j not reached.
// Edge cases: no usable pair gives NaN estimates; a negative drop means the perturbation hurt.
import type { EpisodeOutcome } from "../core/analysis-rows.js";
import { orderBudgetLabels } from "./budget-axis.js";
import { estimateFrom, orderedValues, resampledMeans, type Estimate, type IntervalOptions } from "./task-mean.js";

export interface PerturbationPair {
  /** The turn at which the perturbed episode was forced off the optimal set (1-based). */
  readonly perturbTurn: number;
  readonly perturbed: EpisodeOutcome;
  readonly control: EpisodeOutcome | null;
  /** Whether an action was forced at turn j (false: every valid action there was optimal); unknown counts as forced. */
  readonly forced?: boolean;
}

export type PairStatus = "paired" | "no-control" | "seed-mismatch" | "not-reached" | "not-forced";

export interface PerturbationCell {
  readonly perturbTurn: number;
  /** Budget label, or "pooled". */
  readonly budget: string;
  readonly perturbed: Estimate;
  readonly control: Estimate;
  /** perturbed - control, paired. */
  readonly difference: Estimate;
  readonly pairs: number;
}

export interface PerturbationRecovery {
  readonly cells: readonly PerturbationCell[];
  readonly excluded: { readonly noControl: number; readonly seedMismatch: number; readonly notReached: number; readonly notForced: number };
}

function episodeKey(episode: Pick<EpisodeOutcome, "taskIndex" | "budget" | "sample">): string {
  return `${episode.taskIndex}\u0000${episode.budget}\u0000${episode.sample}`;
}

/** Pair every perturbed episode with the control episode of the same (task, budget label, sample). */
export function pairPerturbedEpisodes(perturbed: Iterable<EpisodeOutcome>, control: Iterable<EpisodeOutcome>, perturbTurn: number): PerturbationPair[] {
  const controls = new Map<string, EpisodeOutcome>();
  for (const episode of control) controls.set(episodeKey(episode), episode);
  return [...perturbed].map((episode) => ({ perturbTurn, perturbed: episode, control: controls.get(episodeKey(episode)) ?? null }));
}

export function pairStatus(pair: PerturbationPair): PairStatus {
  if (pair.control === null) return "no-control";
  if (pair.control.seed !== pair.perturbed.seed) return "seed-mismatch";
  if (pair.perturbed.turnsUsed < pair.perturbTurn || pair.control.turnsUsed < pair.perturbTurn) return "not-reached";
  if (pair.forced === false) return "not-forced";
  return "paired";
}

interface Sums {
  perturbed: number;
  control: number;
  pairs: number;
}

/** The pairs' counts, added one pair at a time (pairs streamed from a store need not sit in memory). */
export interface PerturbationTally {
  add(pair: PerturbationPair): void;
  result(options?: IntervalOptions): PerturbationRecovery;
}

export function perturbationTally(): PerturbationTally {
  const cells = new Map<string, { perturbTurn: number; budget: string; tasks: Map<number, Sums> }>();
  const excluded = { noControl: 0, seedMismatch: 0, notReached: 0, notForced: 0 };
  const add = (pair: PerturbationPair): void => {
    const status = pairStatus(pair);
    if (status === "no-control") excluded.noControl++;
    else if (status === "seed-mismatch") excluded.seedMismatch++;
    else if (status === "not-reached") excluded.notReached++;
    else if (status === "not-forced") excluded.notForced++;
    if (status !== "paired") return;
    for (const budget of [pair.perturbed.budget, "pooled"]) {
      const key = `${pair.perturbTurn}\u0000${budget}`;
      let cell = cells.get(key);
      if (cell === undefined) cells.set(key, (cell = { perturbTurn: pair.perturbTurn, budget, tasks: new Map() }));
      let sums = cell.tasks.get(pair.perturbed.taskIndex);
      if (sums === undefined) cell.tasks.set(pair.perturbed.taskIndex, (sums = { perturbed: 0, control: 0, pairs: 0 }));
      sums.perturbed += pair.perturbed.success ? 1 : 0;
      sums.control += (pair.control as EpisodeOutcome).success ? 1 : 0;
      sums.pairs += 1;
    }
  };
  const result = (options: IntervalOptions = {}): PerturbationRecovery => {
    const order = orderBudgetLabels([...cells.values()].map((cell) => cell.budget).filter((budget) => budget !== "pooled"));
    const rank = (budget: string): number => (budget === "pooled" ? order.length : order.indexOf(budget));
    const summarised = [...cells.values()]
      .sort((a, b) => a.perturbTurn - b.perturbTurn || rank(a.budget) - rank(b.budget))
      .map((cell) => summariseCell(cell.perturbTurn, cell.budget, cell.tasks, options));
    return { cells: summarised, excluded: { ...excluded } };
  };
  return { add, result };
}

export function perturbationRecovery(pairs: Iterable<PerturbationPair>, options: IntervalOptions = {}): PerturbationRecovery {
  const tally = perturbationTally();
  for (const pair of pairs) tally.add(pair);
  return tally.result(options);
}

function summariseCell(perturbTurn: number, budget: string, tasks: Map<number, Sums>, options: IntervalOptions): PerturbationCell {
  const per = (pick: (sums: Sums) => number): Float64Array => orderedValues(new Map([...tasks].map(([task, sums]) => [task, pick(sums) / sums.pairs])));
  const pairs = [...tasks.values()].reduce((sum, sums) => sum + sums.pairs, 0);
  const series = [per((sums) => sums.perturbed), per((sums) => sums.control), per((sums) => sums.perturbed - sums.control)] as const;
  const [perturbed, control, difference] = resampledMeans(series, options.bootstrap ?? 1000, options.seed ?? 0) as [Float64Array, Float64Array, Float64Array];
  return {
    perturbTurn,
    budget,
    perturbed: estimateFrom(series[0], perturbed, pairs, options.level),
    control: estimateFrom(series[1], control, pairs, options.level),
    difference: estimateFrom(series[2], difference, pairs, options.level),
    pairs,
  };
}
