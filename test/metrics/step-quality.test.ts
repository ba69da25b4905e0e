import { describe, expect, it } from "vitest";
import { positionsInScope } from "../../src/core/analysis-rows.js";
import { stepCountsOf } from "../../src/metrics/episode-rows.js";
import { stepQuality, stepQualityPerTask } from "../../src/metrics/step-quality.js";
import { episode, HAND_BUDGETS } from "../helpers/episodes.js";

// Task 0 (budget 5): optimal, wrong, optimal. Task 1 (budget 4): optimal, optimal. Task 1 also has an episode
// without annotations and one that ended in a policy error: neither may count.
const episodes = [
  episode({ task: 0, budgetTurns: 5, success: true, turns: [true, false, true] }),
  episode({ task: 1, budgetTurns: 4, success: true, turns: [true, true] }),
  episode({ task: 1, budgetTurns: 4, sample: 1, success: false, turns: [{}, {}] }),
  episode({ task: 1, budgetTurns: 4, sample: 2, success: false, stopReason: "error", turns: [false, false] }),
];

describe("stepQuality", () => {
  const quality = stepQuality(stepCountsOf(episodes, HAND_BUDGETS), { bootstrap: 0 });

  it("averages each task's fraction of optimal actions over tasks", () => {
    expect(quality.overall.value).toBeCloseTo((2 / 3 + 1) / 2, 12);
    expect(quality.overall).toMatchObject({ tasks: 2, n: 5 });
    expect(stepQualityPerTask(stepCountsOf(episodes, HAND_BUDGETS))).toEqual(
      new Map([
        [0, 2 / 3],
        [1, 1],
      ]),
    );
  });

  it("splits by turn index and by turns left, this turn included", () => {
    expect(quality.byTurn.map((cell) => [cell.turn, cell.estimate.value, cell.estimate.tasks])).toEqual([
      [1, 1, 2],
      [2, 0.5, 2],
      [3, 1, 1],
    ]);
    // Task 0 had 5, 4, 3 turns left; task 1 had 4, 3.
    expect(quality.byTurnsLeft.map((cell) => [cell.turnsLeft, cell.estimate.value])).toEqual([
      [3, 1],
      [4, 0.5],
      [5, 1],
    ]);
  });

  it("splits turns left within each budget, so that a budget's first turns do not mix with larger budgets' later ones", () => {
    const mixed = stepQuality(
      stepCountsOf(
        [
          episode({ task: 0, budget: "100%", budgetTurns: 4, success: false, turns: [true, false] }),
          episode({ task: 0, budget: "50%", budgetTurns: 2, success: true, turns: [false, true] }),
        ],
        HAND_BUDGETS,
      ),
      { bootstrap: 0 },
    );
    expect(mixed.byBudgetAndTurnsLeft.map((cell) => [cell.budget, cell.turnsLeft, cell.estimate.value])).toEqual([
      ["50%", 1, 1],
      ["50%", 2, 0],
      ["100%", 3, 0],
      ["100%", 4, 1],
    ]);
    // Pooled, turns left 2 holds only the 50% budget's first turn: nothing of the 100% budget's.
    expect(mixed.byTurnsLeft.map((cell) => [cell.turnsLeft, cell.estimate.value])).toEqual([
      [1, 1],
      [2, 0],
      [3, 0],
      [4, 1],
    ]);
  });

  it("orders budgets on their axis and gives NaN without annotated turns", () => {
    const two = stepQuality(
      stepCountsOf(
        [
          episode({ task: 0, budget: "100%", success: true, turns: [true] }),
          episode({ task: 0, budget: "25%", success: false, turns: [false] }),
        ],
        HAND_BUDGETS,
      ),
      { bootstrap: 0 },
    );
    expect(two.byBudget.map((cell) => [cell.budget, cell.estimate.value])).toEqual([
      ["25%", 0],
      ["100%", 1],
    ]);
    const none = stepQuality([], { bootstrap: 0 });
    expect(none.overall.value).toBeNaN();
    expect(none.byTurn).toEqual([]);
  });

  it("restarts the count of turns left at each user turn under a per-user-turn budget", () => {
    // Turns record the segment after their step: turn 2 moved the episode to user turn 1.
    expect(positionsInScope("user-turn", [0, 1, 1, 2, 2])).toEqual([1, 2, 1, 2, 1]);
    expect(positionsInScope("episode", [0, 1, 1])).toEqual([1, 2, 3]);
    const rows = stepCountsOf(
      [
        episode({
          task: 0,
          budgetTurns: 3,
          scope: "user-turn",
          success: true,
          turns: [
            { optimal: true, segment: 0 },
            { optimal: true, segment: 1 },
            { optimal: false, segment: 1 },
          ],
        }),
      ],
      HAND_BUDGETS,
    );
    expect(rows.map((row) => [row.turn, row.turnsLeft])).toEqual([
      [1, 3],
      [2, 2],
      [3, 3],
    ]);
  });
});
