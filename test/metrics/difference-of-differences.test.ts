// The difference of two paired differences on hand-built per-task values whose answer is known.
import { describe, expect, it } from "vitest";
import { differenceOfDifferences } from "../../src/metrics/difference-of-differences.js";

const perTask = (values: readonly number[]): Map<number, number> => new Map(values.map((value, task) => [task, value]));

describe("differenceOfDifferences", () => {
  it("gives the mean of (a1 - b1) - (a2 - b2) over the tasks all four share, with the two gains", () => {
    // Gains of 0.3 at the generous budget, 0.1 at the tight one, whatever each task's difficulty: 0.2 exactly.
    const base = [0.1, 0.5, 0.9, 0.2, 0.4];
    const result = differenceOfDifferences(
      perTask(base.map((v) => v + 0.3)),
      perTask(base),
      perTask(base.map((v) => v / 2 + 0.1)),
      perTask(base.map((v) => v / 2)),
      { bootstrap: 300, seed: 1 },
    );
    expect(result.first.value).toBeCloseTo(0.3, 12);
    expect(result.second.value).toBeCloseTo(0.1, 12);
    expect(result.difference.value).toBeCloseTo(0.2, 12);
    // Constant per-task differences: the interval collapses onto the value.
    expect(result.difference.low).toBeCloseTo(0.2, 12);
    expect(result.difference.high).toBeCloseTo(0.2, 12);
    expect(result.shared).toBe(5);
  });

  it("pairs by task: a gain that shrinks on every task is found even when the two gains' own intervals overlap", () => {
    const tasks = 40;
    const noise = (task: number): number => ((task * 37) % 11) / 10 - 0.5;
    const a1 = perTask(Array.from({ length: tasks }, (_, t) => 0.5 + noise(t) + 0.05));
    const b1 = perTask(Array.from({ length: tasks }, (_, t) => 0.5 - noise(t)));
    const a2 = perTask(Array.from({ length: tasks }, (_, t) => 0.5 + noise(t)));
    const b2 = b1;
    const result = differenceOfDifferences(a1, b1, a2, b2, { bootstrap: 500, seed: 2 });
    expect(result.difference.low).toBeCloseTo(0.05, 12);
    expect((result.first.high as number) > (result.second.low as number)).toBe(true);
  });

  it("uses only tasks with all four values, and gives NaN with none", () => {
    const result = differenceOfDifferences(
      perTask([1, 1, 1]),
      perTask([0, 0]),
      perTask([0, 0, 0]),
      perTask([0, 0, 0]),
      { bootstrap: 0 },
    );
    expect(result.shared).toBe(2);
    expect(result.difference.value).toBe(1);
    expect(Number.isNaN(differenceOfDifferences(new Map(), new Map(), new Map(), new Map()).difference.value)).toBe(
      true,
    );
  });
});
