import { describe, expect, it } from "vitest";
import type { HorizonCounts } from "../../src/core/analysis-rows.js";
import { horizonCountsOf } from "../../src/metrics/episode-rows.js";
import { horizon, horizonPerTask, lengthBin, ratioBin } from "../../src/metrics/horizon.js";
import { episode } from "../helpers/episodes.js";

describe("horizon", () => {
  it("bins optimal lengths by powers of two (hanoi: one bin per disk count)", () => {
    expect([1, 2, 3, 4, 7, 8, 15, 31, 63].map(lengthBin)).toEqual([1, 2, 2, 4, 4, 8, 8, 16, 32]);
    expect([0.5, 1, 1.2, 1.5, 2, 3.99, 4, 9].map((ratio) => ratioBin(ratio, [1, 1.5, 2, 3, 4]))).toEqual([0, 1, 1, 2, 3, 4, 5, 5]);
  });

  it("gives success by optimal length per budget and by budget ratio, over tasks", () => {
    const rows: HorizonCounts[] = [
      // Task 0: 7 moves; at 7 turns 1/4, at 28 turns 4/4. Task 1: 15 moves; 0/4 and 2/4. Task 2: 5 moves, 7 turns: 2/2.
      { taskIndex: 0, budget: "25%", budgetTurns: 7, optimalLength: 7, n: 4, c: 1 },
      { taskIndex: 0, budget: "100%", budgetTurns: 28, optimalLength: 7, n: 4, c: 4 },
      { taskIndex: 1, budget: "25%", budgetTurns: 15, optimalLength: 15, n: 4, c: 0 },
      { taskIndex: 1, budget: "100%", budgetTurns: 60, optimalLength: 15, n: 4, c: 2 },
      { taskIndex: 2, budget: "25%", budgetTurns: 7, optimalLength: 5, n: 2, c: 2 },
      { taskIndex: 3, budget: "25%", budgetTurns: 7, optimalLength: null, n: 3, c: 0 },
    ];
    const result = horizon(rows, { bootstrap: 0 });
    expect(result.unknown).toBe(3);
    expect(result.byLength.map((curve) => curve.budget)).toEqual(["25%", "100%", "pooled"]);
    expect(result.byLength[0]?.bins.map((bin) => [bin.label, bin.estimate.value])).toEqual([
      ["4-7", (0.25 + 1) / 2],
      ["8-15", 0],
    ]);
    expect(result.byLength[2]?.bins.map((bin) => [bin.label, bin.estimate.value])).toEqual([
      ["4-7", (5 / 8 + 1) / 2],
      ["8-15", 2 / 8],
    ]);
    // Ratios: 1, 4, 1, 4, 1.4.
    expect(result.byRatio.map((bin) => [bin.label, bin.estimate.value, bin.estimate.tasks])).toEqual([
      ["1-1.5", (0.25 + 0 + 1) / 3, 3],
      [">=4", (1 + 0.5) / 2, 2],
    ]);
    expect(horizonPerTask(rows, 8)).toEqual(new Map([[1, 2 / 8]]));
  });

  it("reads the optimal length from the first turn of annotated episodes", () => {
    const rows = horizonCountsOf([
      episode({ task: 0, budgetTurns: 7, success: true, turns: [{ remainingBefore: 7 }, { remainingBefore: 6 }] }),
      episode({ task: 0, budgetTurns: 7, sample: 1, success: false, turns: [{ remainingBefore: 7 }] }),
      episode({ task: 1, budgetTurns: 7, success: false, turns: [{ remainingBefore: Infinity }] }),
      episode({ task: 2, budgetTurns: 7, success: false, turns: [{}] }),
    ]);
    expect(rows.map((row) => [row.taskIndex, row.optimalLength, row.n, row.c])).toEqual([
      [0, 7, 2, 1],
      [1, null, 1, 0],
      [2, null, 1, 0],
    ]);
  });
});
