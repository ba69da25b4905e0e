import { describe, expect, it } from "vitest";
import { firstErrorCountsOf } from "../../src/metrics/episode-rows.js";
import { naturalRecovery, recoveryPerTask } from "../../src/metrics/natural-recovery.js";
import { episode, HAND_BUDGETS } from "../helpers/episodes.js";

// Task 0: first error at turn 2 twice (one success), one clean success. Task 1: first error at turn 1 (failure),
// one clean success, one episode without annotations (left out).
const episodes = [
  episode({ task: 0, success: true, turns: [true, false, true, true] }),
  episode({ task: 0, sample: 1, success: false, turns: [true, false, false] }),
  episode({ task: 0, sample: 2, success: true, turns: [true, true] }),
  episode({ task: 1, success: false, turns: [false, true] }),
  episode({ task: 1, sample: 1, success: true, turns: [true] }),
  episode({ task: 1, sample: 2, success: true, turns: [{}] }),
];

describe("naturalRecovery", () => {
  const recovery = naturalRecovery(firstErrorCountsOf(episodes, HAND_BUDGETS), { bootstrap: 0 });
  const cells = recovery.perBudget[0];

  it("gives success by the turn of the first error, over tasks", () => {
    expect(
      cells?.byFirstError.map((cell) => [cell.turn, cell.estimate.value, cell.estimate.tasks, cell.estimate.n]),
    ).toEqual([
      [1, 0, 1, 1],
      [2, 0.5, 1, 2],
    ]);
  });

  it("gives the recovery rate, the clean success and the error rate", () => {
    expect(cells?.anyError.value).toBeCloseTo((0.5 + 0) / 2, 12);
    expect(cells?.clean.value).toBe(1);
    expect(cells?.errorRate.value).toBeCloseTo((2 / 3 + 1 / 2) / 2, 12);
    expect(recoveryPerTask(firstErrorCountsOf(episodes, HAND_BUDGETS))).toEqual(
      new Map([
        [0, 0.5],
        [1, 0],
      ]),
    );
  });

  it("keeps budgets apart and pools them", () => {
    const mixed = [...episodes, episode({ task: 0, budget: "25%", success: false, turns: [false] })];
    const result = naturalRecovery(firstErrorCountsOf(mixed, HAND_BUDGETS), { bootstrap: 0 });
    expect(result.perBudget.map((cell) => cell.budget)).toEqual(["25%", "100%"]);
    expect(result.perBudget[0]?.anyError.value).toBe(0);
    expect(result.pooled.anyError.value).toBeCloseTo((1 / 3 + 0) / 2, 12);
    expect(recoveryPerTask(firstErrorCountsOf(mixed, HAND_BUDGETS), "25%")).toEqual(new Map([[0, 0]]));
  });
});
