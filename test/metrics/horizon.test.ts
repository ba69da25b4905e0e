import { describe, expect, it } from "vitest";
import type { HorizonCounts } from "../../src/core/analysis-rows.js";
import { horizonCountsOf } from "../../src/metrics/episode-rows.js";
import { horizon, horizonBinning, horizonPerTask } from "../../src/metrics/horizon.js";
import { budget, episode, HAND_BUDGETS } from "../helpers/episodes.js";

describe("horizon", () => {
  it("gives success by optimal length per budget and by budget ratio, over tasks", () => {
    const rows: HorizonCounts[] = [
      // Task 0: 7 moves; at 7 turns 1/4, at 28 turns 4/4. Task 1: 15 moves; 0/4 and 2/4. Task 2: 5 moves, 7 turns: 2/2.
      { taskIndex: 0, budget: budget("25%"), budgetTurns: 7, optimalLength: 7, n: 4, c: 1 },
      { taskIndex: 0, budget: budget("100%"), budgetTurns: 28, optimalLength: 7, n: 4, c: 4 },
      { taskIndex: 1, budget: budget("25%"), budgetTurns: 15, optimalLength: 15, n: 4, c: 0 },
      { taskIndex: 1, budget: budget("100%"), budgetTurns: 60, optimalLength: 15, n: 4, c: 2 },
      { taskIndex: 2, budget: budget("25%"), budgetTurns: 7, optimalLength: 5, n: 2, c: 2 },
      { taskIndex: 3, budget: budget("25%"), budgetTurns: 7, optimalLength: null, n: 3, c: 0 },
    ];
    const result = horizon(rows, { bootstrap: 0 });
    expect(result.unknown).toBe(3);
    expect(result.byLength.map((curve) => curve.budget)).toEqual(["25%", "100%", "pooled"]);
    // Lengths 5 and 7 share the bin [4, 8), 15 is alone in [8, 16): labelled by the lengths they hold.
    expect(result.byLength[0]?.bins.map((bin) => [bin.label, bin.estimate.value])).toEqual([
      ["5-7", (0.25 + 1) / 2],
      ["15", 0],
    ]);
    expect(result.byLength[2]?.bins.map((bin) => [bin.label, bin.low, bin.high, bin.estimate.value])).toEqual([
      ["5-7", 5, 7, (5 / 8 + 1) / 2],
      ["15", 15, 15, 2 / 8],
    ]);
    // Ratios: 1, 4, 1, 4, 1.4 (few: each its own bin).
    expect(result.byRatio.map((bin) => [bin.label, bin.estimate.value, bin.estimate.tasks])).toEqual([
      ["1", (0.25 + 0) / 2, 2],
      ["1.4", 1, 1],
      ["4", (1 + 0.5) / 2, 2],
    ]);
    expect(horizonPerTask(rows, 8)).toEqual(new Map([[1, 2 / 8]]));
  });

  it("labels a bin the same in every group binned together, and refuses a row outside its binning", () => {
    const a: HorizonCounts[] = [{ taskIndex: 0, budget: budget("100%"), budgetTurns: 8, optimalLength: 4, n: 2, c: 1 }];
    const b: HorizonCounts[] = [
      { taskIndex: 0, budget: budget("100%"), budgetTurns: 12, optimalLength: 6, n: 2, c: 2 },
    ];
    const binning = horizonBinning([...a, ...b]);
    // Alone, a's bin [4, 8) holds only 4; binned with b it holds 4 and 6, in both groups.
    expect(horizon(a, { bootstrap: 0 }).byLength[0]?.bins[0]?.label).toBe("4");
    expect(horizon(a, { bootstrap: 0, binning }).byLength[0]?.bins[0]?.label).toBe("4-6");
    expect(horizon(b, { bootstrap: 0, binning }).byLength[0]?.bins[0]?.label).toBe("4-6");
    expect(horizon(b, { bootstrap: 0, binning }).byRatio.map((bin) => bin.label)).toEqual(["2"]);
    expect(() =>
      horizon([{ taskIndex: 1, budget: budget("100%"), budgetTurns: 30, optimalLength: 10, n: 1, c: 1 }], { binning }),
    ).toThrow(/outside the bins/);
  });

  it("reads the optimal length from the first turn of annotated episodes", () => {
    const rows = horizonCountsOf(
      [
        episode({ task: 0, budgetTurns: 7, success: true, turns: [{ remainingBefore: 7 }, { remainingBefore: 6 }] }),
        episode({ task: 0, budgetTurns: 7, sample: 1, success: false, turns: [{ remainingBefore: 7 }] }),
        episode({ task: 1, budgetTurns: 7, success: false, turns: [{ remainingBefore: Infinity }] }),
        episode({ task: 2, budgetTurns: 7, success: false, turns: [{}] }),
      ],
      HAND_BUDGETS,
    );
    expect(rows.map((row) => [row.taskIndex, row.optimalLength, row.n, row.c])).toEqual([
      [0, 7, 2, 1],
      [1, null, 1, 0],
      [2, null, 1, 0],
    ]);
  });
});
