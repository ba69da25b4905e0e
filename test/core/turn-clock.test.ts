// The turn clock: turns used, left and spent in both scopes, and the replay of recorded segments (BFCL's user-turn
// scope: a step that opens a new user turn restarts the count on the turn after it, and never spends the budget).
import { describe, expect, it } from "vitest";
import {
  advanceTurnClock,
  budgetSpent,
  clocksBeforeTurns,
  startTurnClock,
  turnInScope,
  turnsLeft,
  type TurnClock,
} from "../../src/core/turn-clock.js";

/** The clock's readings before each step and whether each step spent the budget, for the segments after each step. */
function play(start: TurnClock, segments: readonly number[]) {
  let clock = start;
  return segments.map((segment) => {
    const before = { turn: turnInScope(clock), left: turnsLeft(clock) };
    clock = advanceTurnClock(clock, segment);
    return { ...before, spent: budgetSpent(clock) };
  });
}

describe("the turn clock", () => {
  it("counts every step in scope episode, and spends the budget on its last turn", () => {
    const clock = startTurnClock({ turns: 3, scope: "episode" });
    expect([turnInScope(clock), turnsLeft(clock), budgetSpent(clock)]).toEqual([1, 3, false]);
    // Segments change (a BFCL episode under an episode budget): the count goes on.
    expect(play(clock, [0, 1, 1])).toEqual([
      { turn: 1, left: 3, spent: false },
      { turn: 2, left: 2, spent: false },
      { turn: 3, left: 1, spent: true },
    ]);
  });

  it("restarts a user-turn budget on the turn after the step that opens a new user turn", () => {
    const clock = startTurnClock({ turns: 2, scope: "user-turn" });
    // User turn 0 takes 2 steps (the second opens user turn 1), user turn 1 takes 3 steps: its second spends it.
    expect(play(clock, [0, 1, 1, 1])).toEqual([
      { turn: 1, left: 2, spent: false },
      { turn: 2, left: 1, spent: false },
      { turn: 1, left: 2, spent: false },
      { turn: 2, left: 1, spent: true },
    ]);
    // The step that opens a new user turn never spends the budget, even on the user turn's last turn.
    const last = advanceTurnClock(advanceTurnClock(clock, 0), 1);
    expect([budgetSpent(last), last.taken, last.used, last.segment, turnsLeft(last)]).toEqual([false, 2, 0, 1, 2]);
  });

  it("starts in the env's first segment: a step that stays there is no new user turn", () => {
    const clock = startTurnClock({ turns: 5, scope: "user-turn" }, 3);
    expect(play(clock, [3, 4, 4]).map((reading) => reading.turn)).toEqual([1, 2, 1]);
  });

  it("replays recorded segments into the clock before each turn, as the live count went", () => {
    const segments = [0, 1, 1, 2, 2];
    const budget = { turns: 4, scope: "user-turn" } as const;
    const replayed = clocksBeforeTurns(budget, segments);
    const live = play(startTurnClock(budget), segments);
    expect(replayed.map(turnInScope)).toEqual([1, 2, 1, 2, 1]);
    expect(replayed.map(turnsLeft)).toEqual(live.map((reading) => reading.left));
    expect(replayed.map((clock) => clock.taken)).toEqual([0, 1, 2, 3, 4]);
    expect(clocksBeforeTurns({ turns: 4, scope: "episode" }, segments).map(turnsLeft)).toEqual([4, 3, 2, 1, 0]);
    expect(clocksBeforeTurns(budget, [])).toEqual([]);
  });

  it("counts without a limit when the budget has none", () => {
    const clock = [0, 0, 0].reduce(advanceTurnClock, startTurnClock({ turns: Infinity, scope: "episode" }));
    expect([turnInScope(clock), turnsLeft(clock), budgetSpent(clock)]).toEqual([4, Infinity, false]);
  });
});
