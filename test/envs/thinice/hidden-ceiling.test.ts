import { describe, expect, it } from "vitest";
import { taskDraws } from "../../../src/agent/task-draws.js";
import { hiddenCeiling, maxMinCeiling, observationShares } from "../../../src/envs/thinice/hidden-ceiling.js";
import { thinice, type ThinIceTask } from "../../../src/envs/thinice/index.js";
import { mapFromRows } from "../../../src/envs/thinice/maps.js";
import { heldOutSet } from "../../../src/study/plan.js";

const close = (values: readonly number[], digits = 9): number[] => values.map((value) => Number(value.toFixed(digits)));

describe("thinice hidden-budget step quality ceiling", () => {
  // Short route 4, safe route 8; budgets 5, 6, 8, 12. The edge of the ice (cell 1) is "cross" at 5 and 6 and "go
  // round" at 8 and 12; it is 1 of 3.2 expected turns at 5 and 6 and 1 of 8 at 8 and 12 (decisions.test.ts).
  const task = mapFromRows(["S.~.G", "#.#.#", "#...#"], "test");

  it("plays the budget mass's move where the budget is hidden: cross (2/3.2 against 2/8), wrong 1 turn in 8 at 2x and 3x", () => {
    for (const view of ["map", "observation", "withTurn"] as const) {
      const ceiling = hiddenCeiling([task], 0.4, view);
      expect(close(ceiling.bayes)).toEqual(close([1, 1, 7 / 8, 7 / 8]));
      expect(close(ceiling.alone)).toEqual([1, 1, 1, 1]);
    }
    // Guaranteed at every budget: cross with probability p = 8 / 11.2 at the edge, so (1 - p) / 3.2 = p / 8.
    expect(maxMinCeiling([task], 0.4).value).toBeCloseTo(1 - 1 / 11.2, 3);
    // Every budget's shares sum to 1 over its observations when each takes its best move there (all turns counted).
    const shares = observationShares(task, 0.4);
    for (let j = 0; j < 4; j++) {
      const sum = shares.reduce(
        (total, row) => total + Math.max(...Array.from({ length: row.length / 4 }, (_, a) => row[4 * a + j]!)),
        0,
      );
      expect(sum).toBeCloseTo(1, 12);
    }
  });

  it("a map without thin ice has nothing hidden", () => {
    const ceiling = hiddenCeiling([mapFromRows(["S...G"], "test")], 0.4);
    expect(close(ceiling.bayes)).toEqual([1, 1, 1, 1]);
  });

  it("on the study's 150 held-out tasks (full preset, new in structure): 96.5 / 100 / 93.4 / 91.3%, at most 93.0% at every budget", () => {
    const set = heldOutSet({ heldOutSeed: 1, heldOutTasks: 150 }, { env: "thinice", heldOut: "structure" });
    const draws = taskDraws(thinice(), set.seed, { count: 150, field: "tasks", distinct: "structure" });
    const maps = Array.from({ length: 150 }, (_, index) => draws.make(index) as ThinIceTask);
    const ceiling = hiddenCeiling(maps, 0.4);
    expect(close(ceiling.bayes, 3)).toEqual([0.965, 1, 0.934, 0.913]);
    expect(close(ceiling.alone, 9)).toEqual([1, 1, 1, 1]);
    // Neither the feedback line nor the turn number tells the budgets apart on the expert's states.
    expect(close(hiddenCeiling(maps, 0.4, "map").bayes)).toEqual(close(ceiling.bayes));
    expect(close(hiddenCeiling(maps, 0.4, "withTurn").bayes)).toEqual(close(ceiling.bayes));
    expect(maxMinCeiling(maps, 0.4).value).toBeCloseTo(0.93, 3);
    // The quick preset's 40 tasks are the first 40.
    expect(close(hiddenCeiling(maps.slice(0, 40), 0.4).bayes, 3)).toEqual([0.974, 1, 0.919, 0.895]);
  });
});
