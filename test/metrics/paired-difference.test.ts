import { describe, expect, it } from "vitest";
import { differenceDirection, pairedDifference } from "../../src/metrics/paired-difference.js";
import { taskMean } from "../../src/metrics/task-mean.js";

describe("pairedDifference", () => {
  it("compares two models on the tasks both were scored on", () => {
    const result = pairedDifference(
      new Map([
        [0, 1],
        [1, 0.5],
        [2, 0],
      ]),
      new Map([
        [0, 0.5],
        [1, 0.5],
        [3, 1],
      ]),
      { bootstrap: 0 },
    );
    expect(result).toMatchObject({ shared: 2, onlyA: 1, onlyB: 1 });
    expect(result.a.value).toBe(0.75);
    expect(result.b.value).toBe(0.5);
    expect(result.difference.value).toBe(0.25);
  });

  it("detects a consistent gain that separate intervals would call a tie", () => {
    // Tasks of very different difficulty; model A is better by 0.05 on every task.
    const b = new Map(Array.from({ length: 40 }, (_, task) => [task, (task % 10) / 10] as const));
    const a = new Map([...b].map(([task, value]) => [task, value + 0.05] as const));
    const options = { bootstrap: 500, seed: 4 };
    const alone = [taskMean(a, 40, options), taskMean(b, 40, options)];
    expect(alone[0]?.low).toBeLessThan(alone[1]?.high as number);
    const paired = pairedDifference(a, b, options);
    expect(paired.difference.value).toBeCloseTo(0.05, 12);
    expect(paired.difference.low).toBeCloseTo(0.05, 12);
    expect(paired.difference.high).toBeCloseTo(0.05, 12);
    expect(differenceDirection(paired.difference)).toBe("higher");
    expect(differenceDirection(pairedDifference(b, a, options).difference)).toBe("lower");
  });

  it("reads an interval that contains zero as unclear, and no shared task as no data", () => {
    const a = new Map(Array.from({ length: 30 }, (_, task) => [task, task % 2] as const));
    const b = new Map(Array.from({ length: 30 }, (_, task) => [task, (task + 1) % 2] as const));
    expect(differenceDirection(pairedDifference(a, b, { bootstrap: 300, seed: 1 }).difference)).toBe("unclear");
    const none = pairedDifference(new Map([[0, 1]]), new Map([[1, 1]]));
    expect(none.shared).toBe(0);
    expect(differenceDirection(none.difference)).toBe("no data");
  });
});
