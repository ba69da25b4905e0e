// The analyses' input rows from episodes held in memory (the store computes the same rows with SQL, in
// store/analysis-rows.ts; a test checks that both agree on real runs). Policy errors are left out, as in
// outcomes.ts; turns without an oracle annotation are left out of the step and first-error rows, an episode
// without any annotated turn is left out of the first-error rows, and turns an intervention played (forced) are
// left out of the invalid-reply rows. Each function takes the budgets the episodes were played under (an evaluation's
// `result.config.budgets`): a row's budget is the spec its episodes' budget label names.
import {
  type EpisodeOutcome,
  type FirstErrorCounts,
  type HorizonCounts,
  type InvalidCounts,
  type StepCounts,
} from "../core/analysis-rows.js";
import { budgetsByLabel, type BudgetSpec } from "../core/budget.js";
import { ConfigError } from "../core/errors.js";
import type { Episode } from "../core/episode.js";
import { clocksBeforeTurns, turnsLeft } from "../core/turn-clock.js";

type Counted = { taskIndex: number; budget: BudgetSpec; n: number; c: number };

function bump<Row extends Counted>(rows: Map<string, Row>, key: string, make: () => Row, success: boolean): void {
  let row = rows.get(key);
  if (row === undefined) rows.set(key, (row = make()));
  row.n += 1;
  if (success) row.c += 1;
}

const finished = (episodes: Iterable<Episode>): Episode[] =>
  [...episodes].filter((episode) => episode.stopReason !== "error");

/** The spec of an episode's budget, among the budgets given. */
function budgetOf(budgets: readonly BudgetSpec[]): (episode: Episode) => BudgetSpec {
  const byLabel = budgetsByLabel(budgets);
  return (episode) => {
    const spec = byLabel.get(episode.budget.label);
    if (spec === undefined)
      throw new ConfigError(
        "budgets",
        `episode ${episode.taskIndex}/${episode.sample} was played under budget "${episode.budget.label}", which the budgets given (${budgets.map((known) => known.label).join(", ") || "none"}) do not list`,
        "pass the budgets the episodes were played under (an evaluation's result.config.budgets)",
      );
    return spec;
  };
}

export function stepCountsOf(episodes: Iterable<Episode>, budgets: readonly BudgetSpec[]): StepCounts[] {
  const budget = budgetOf(budgets);
  const rows = new Map<
    string,
    { taskIndex: number; budget: BudgetSpec; turn: number; turnsLeft: number; optimal: number; total: number }
  >();
  for (const episode of finished(episodes)) {
    const clocks = clocksBeforeTurns(
      episode.budget,
      episode.turns.map((turn) => turn.segment),
    );
    episode.turns.forEach((turn, i) => {
      if (turn.optimal === undefined) return;
      const left = turnsLeft(clocks[i]!);
      const key = `${episode.taskIndex}\u0000${episode.budget.label}\u0000${turn.index}\u0000${left}`;
      let row = rows.get(key);
      if (row === undefined)
        rows.set(
          key,
          (row = {
            taskIndex: episode.taskIndex,
            budget: budget(episode),
            turn: turn.index,
            turnsLeft: left,
            optimal: 0,
            total: 0,
          }),
        );
      row.total += 1;
      // The policy's own decision: its judged reply where an intervention played in its place (teacher-forced).
      if (turn.forced?.policyOptimal ?? turn.optimal) row.optimal += 1;
    });
  }
  return [...rows.values()];
}

export function firstErrorCountsOf(episodes: Iterable<Episode>, budgets: readonly BudgetSpec[]): FirstErrorCounts[] {
  const budget = budgetOf(budgets);
  const rows = new Map<
    string,
    { taskIndex: number; budget: BudgetSpec; firstError: number | null; n: number; c: number }
  >();
  for (const episode of finished(episodes)) {
    const annotated = episode.turns.filter((turn) => turn.optimal !== undefined);
    if (annotated.length === 0) continue;
    const firstError = annotated.find((turn) => turn.optimal === false)?.index ?? null;
    bump(
      rows,
      `${episode.taskIndex}\u0000${episode.budget.label}\u0000${firstError}`,
      () => ({ taskIndex: episode.taskIndex, budget: budget(episode), firstError, n: 0, c: 0 }),
      episode.success,
    );
  }
  return [...rows.values()];
}

export function horizonCountsOf(episodes: Iterable<Episode>, budgets: readonly BudgetSpec[]): HorizonCounts[] {
  const budget = budgetOf(budgets);
  const rows = new Map<
    string,
    { taskIndex: number; budget: BudgetSpec; budgetTurns: number; optimalLength: number | null; n: number; c: number }
  >();
  for (const episode of finished(episodes)) {
    const first = episode.turns[0]?.remainingBefore;
    const optimalLength = first === undefined || !Number.isFinite(first) ? null : first;
    const key = `${episode.taskIndex}\u0000${episode.budget.label}\u0000${episode.budget.turns}\u0000${optimalLength}`;
    bump(
      rows,
      key,
      () => ({
        taskIndex: episode.taskIndex,
        budget: budget(episode),
        budgetTurns: episode.budget.turns,
        optimalLength,
        n: 0,
        c: 0,
      }),
      episode.success,
    );
  }
  return [...rows.values()];
}

export function invalidCountsOf(episodes: Iterable<Episode>, budgets: readonly BudgetSpec[]): InvalidCounts[] {
  const budget = budgetOf(budgets);
  const rows = new Map<string, { taskIndex: number; budget: BudgetSpec; invalid: number; turns: number }>();
  for (const episode of finished(episodes)) {
    for (const turn of episode.turns) {
      if (turn.forced !== undefined) continue;
      const key = `${episode.taskIndex}\u0000${episode.budget.label}`;
      let row = rows.get(key);
      if (row === undefined)
        rows.set(key, (row = { taskIndex: episode.taskIndex, budget: budget(episode), invalid: 0, turns: 0 }));
      row.turns += 1;
      if (turn.invalid) row.invalid += 1;
    }
  }
  return [...rows.values()];
}

export function episodeOutcomesOf(episodes: Iterable<Episode>, budgets: readonly BudgetSpec[]): EpisodeOutcome[] {
  const budget = budgetOf(budgets);
  return finished(episodes).map((episode) => ({
    taskIndex: episode.taskIndex,
    budget: budget(episode),
    sample: episode.sample,
    seed: episode.seed,
    success: episode.success,
    turnsUsed: episode.turnsUsed,
  }));
}
