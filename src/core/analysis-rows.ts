// Rows that the store's analysis readers produce (SQL aggregates over stored episodes and turns) and the study
// analyses in metrics/ consume, so that neither layer imports the other (as with outcome.ts). Every row is
// already aggregated per task, so a 1M-episode run comes back as a few thousand rows. `taskIndex` is the task's
// position in its run, or any integer that identifies a task within one analysis (the report renumbers tasks
// so that runs of several models on the same tasks share numbers). A row's `budget` is the spec it was played under
// (the run's BudgetSpec, found by the label its episodes are stored with), so the analyses order budgets by kind and
// size and show `budget.label`, never reading a label as text again.
import type { BudgetScope, BudgetSpec } from "./budget.js";
import { clocksBeforeTurns, turnInScope } from "./turn-clock.js";

/** Oracle-annotated turns of one task: how many were taken at turn `turn` with `turnsLeft` turns left (this
 * one included) under budget `budget`, and how many of those actions were in the oracle's optimal set. */
export interface StepCounts {
  readonly taskIndex: number;
  readonly budget: BudgetSpec;
  /** 1-based turn index within the episode. */
  readonly turn: number;
  /** Turns left including this one (budget turns - turns already used in the budget's scope). */
  readonly turnsLeft: number;
  readonly optimal: number;
  readonly total: number;
}

/** Annotated episodes of one task under one budget whose first non-optimal action came at `firstError`
 * (null: every action was optimal): n episodes, c of them successful. */
export interface FirstErrorCounts {
  readonly taskIndex: number;
  readonly budget: BudgetSpec;
  readonly firstError: number | null;
  readonly n: number;
  readonly c: number;
}

/** Episodes of one task under one budget, with the task's optimal length (the oracle's remaining turns at turn
 * 1; null when not annotated or unsolvable) and the budget in turns: n episodes, c successful. */
export interface HorizonCounts {
  readonly taskIndex: number;
  readonly budget: BudgetSpec;
  readonly budgetTurns: number;
  readonly optimalLength: number | null;
  readonly n: number;
  readonly c: number;
}

/** The turns the policy played itself (its own reply, not an intervention's action) in the finished episodes of
 * one task under one budget, and how many of those replies were invalid: they could not be parsed, or named an
 * action the env refused (the turn's `invalid` flag). */
export interface InvalidCounts {
  readonly taskIndex: number;
  readonly budget: BudgetSpec;
  readonly invalid: number;
  readonly turns: number;
}

/** One episode's outcome, with its identity (task, budget, sample) and seed: what pairing needs. */
export interface EpisodeOutcome {
  readonly taskIndex: number;
  readonly budget: BudgetSpec;
  readonly sample: number;
  readonly seed: number;
  readonly success: boolean;
  readonly turnsUsed: number;
}

/**
 * How many turns of the budget each turn of an episode had already used, plus one (its position in the budget's
 * scope, 1-based), from the turns' recorded segments: the turn clock (turn-clock.ts) replayed, as the rollout counts.
 * Scope "episode": 1, 2, 3, ... Scope "user-turn": the count restarts after a turn whose step moved the episode to a
 * new user turn. Turns left, this one included, are budget turns - position + 1 (`turnsLeft` of the replayed clock).
 */
export function positionsInScope(scope: BudgetScope, segments: readonly number[], initialSegment = 0): number[] {
  return clocksBeforeTurns({ turns: Infinity, scope }, segments, initialSegment).map(turnInScope);
}
