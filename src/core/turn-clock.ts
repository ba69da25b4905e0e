// The turn-budget clock: the one count of the turns a budget allows, used by the rollout as it plays, by the
// analyses as they replay stored turns, and by the gym's turn limit (withTurnBudget in gym.ts). Pure values: a clock
// is read between steps and advanced by one step at a time.
//   scope "episode"    every step counts: before turn t, t - 1 turns are used;
//   scope "user-turn"  the count restarts at each user turn (BFCL): a step counts in the user turn it was taken in,
//                      and a step that moves the episode to a new user turn (its recorded segment changes) restarts
//                      the count, so the turn after it is turn 1 of the new user turn again.
// Turns left, the turn about to be played included: budget turns - turns used. The budget is spent when a step leaves
// no turn (turns used >= budget turns); a step that opens a new user turn never spends a per-user-turn budget.
import type { BudgetScope } from "./budget.js";

export interface TurnClock {
  /** The budget's turns in its scope (Infinity: no limit, the count alone). */
  readonly turns: number;
  readonly scope: BudgetScope;
  /** The user turn (env segment) the next step is taken in. */
  readonly segment: number;
  /** Steps taken in the episode. */
  readonly taken: number;
  /** Steps counted against the budget: the episode's (scope "episode"), or the current user turn's. */
  readonly used: number;
}

/** The clock at the start of an episode, in the env's first segment (the reset's `info.segment`). */
export function startTurnClock(
  budget: { readonly turns: number; readonly scope: BudgetScope },
  segment = 0,
): TurnClock {
  return { turns: budget.turns, scope: budget.scope, segment, taken: 0, used: 0 };
}

/** The clock after one step whose result is in `segmentAfter` (the step's `info.segment`). */
export function advanceTurnClock(clock: TurnClock, segmentAfter: number): TurnClock {
  const taken = clock.taken + 1;
  if (clock.scope === "episode") return { ...clock, segment: segmentAfter, taken, used: taken };
  // A new user turn starts: a per-user-turn budget starts again from zero.
  return { ...clock, segment: segmentAfter, taken, used: segmentAfter === clock.segment ? clock.used + 1 : 0 };
}

/** Turns left in the budget's scope, the next one included. */
export function turnsLeft(clock: TurnClock): number {
  return clock.turns - clock.used;
}

/** The next turn's position in the budget's scope, 1-based (what the budget note counts: "Turn 3 of 5"). */
export function turnInScope(clock: TurnClock): number {
  return clock.used + 1;
}

/** True when no turn is left: the step just taken ends the episode by the budget (truncation). */
export function budgetSpent(clock: TurnClock): boolean {
  return clock.used >= clock.turns;
}

/** The clock before each recorded turn of an episode, replayed from the turns' segments (each turn records the
 * segment after its step) and the episode's first segment. */
export function clocksBeforeTurns(
  budget: { readonly turns: number; readonly scope: BudgetScope },
  segments: readonly number[],
  initialSegment = 0,
): TurnClock[] {
  let clock = startTurnClock(budget, initialSegment);
  return segments.map((segment) => {
    const before = clock;
    clock = advanceTurnClock(clock, segment);
    return before;
  });
}
