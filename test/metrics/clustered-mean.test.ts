// The seeds-then-tasks bootstrap: its point estimate weighs strata, seeds and tasks as the header says, its interval
// covers the spread between seeds, and tasks shared by the seeds are resampled once (crossed, not nested).
import { describe, expect, it } from "vitest";
import { clusteredMeans, type SeedValues } from "../../src/metrics/clustered-mean.js";
import { taskMean } from "../../src/metrics/task-mean.js";

const cell = (stratum: string, seed: number, values: readonly number[]): SeedValues => ({
  stratum,
  seed,
  values: new Map(values.map((value, task) => [task, [value]] as const)),
});

const spread = (tasks: number): number[] => Array.from({ length: tasks }, (_, task) => ((task * 37) % 11) / 10);

describe("clusteredMeans", () => {
  it("is the task mean with one seed and one stratum, with an interval around it", () => {
    const values = spread(60);
    const [estimate] = clusteredMeans([cell("a", 1, values)], 1, { bootstrap: 500, seed: 3 });
    const plain = taskMean(new Map(values.map((value, task) => [task, value])), 60, { bootstrap: 0 });
    expect(estimate?.value).toBeCloseTo(plain.value, 12);
    expect(estimate?.low).toBeLessThan(plain.value);
    expect(estimate?.high).toBeGreaterThan(plain.value);
    expect(estimate).toMatchObject({ tasks: 60, n: 60, seeds: 1 });
  });

  it("weighs each stratum the same, whatever its number of tasks, and each seed the same within it", () => {
    const [estimate] = clusteredMeans([cell("a", 1, [1, 1, 1, 1]), cell("b", 1, [0]), cell("b", 2, [1])], 1, {
      bootstrap: 0,
    });
    // a: 1; b: mean of seed 1 (0) and seed 2 (1) = 0.5; strata: (1 + 0.5) / 2.
    expect(estimate?.value).toBeCloseTo(0.75, 12);
    expect(Number.isNaN(estimate?.low)).toBe(true);
  });

  it("widens with the spread between seeds: two seeds that disagree give an interval from one to the other", () => {
    const tasks = Array.from({ length: 40 }, () => 0.5);
    const [estimate] = clusteredMeans(
      [
        cell(
          "a",
          1,
          tasks.map((value) => value - 0.2),
        ),
        cell(
          "a",
          2,
          tasks.map((value) => value + 0.2),
        ),
      ],
      1,
      { bootstrap: 2000, seed: 1 },
    );
    expect(estimate?.value).toBeCloseTo(0.5, 12);
    expect(estimate?.low).toBeCloseTo(0.3, 12);
    expect(estimate?.high).toBeCloseTo(0.7, 12);
    expect(estimate?.seeds).toBe(2);
  });

  it("resamples tasks once for every seed: seeds that agree on every task do not narrow the interval", () => {
    const values = spread(80);
    const width = (seeds: number): number => {
      const [estimate] = clusteredMeans(
        Array.from({ length: seeds }, (_, seed) => cell("a", seed + 1, values)),
        1,
        { bootstrap: 3000, seed: 7 },
      );
      return (estimate?.high ?? NaN) - (estimate?.low ?? NaN);
    };
    // Nested resampling (tasks drawn anew per seed) would shrink the width by about sqrt(3).
    expect(width(3) / width(1)).toBeGreaterThan(0.85);
    expect(width(3) / width(1)).toBeLessThan(1.15);
  });

  it("keeps several series on the same resamples, and gives NaN without data", () => {
    const rows = new Map([
      [0, [0.2, 0.5, 0.3]],
      [1, [0.4, 0.6, 0.2]],
      [2, [0.0, 0.1, 0.1]],
    ] as const);
    const [difference, a, b] = clusteredMeans([{ stratum: "a", seed: 1, values: rows }], 3, {
      bootstrap: 300,
      seed: 2,
    });
    expect((difference?.value ?? NaN) - ((a?.value ?? NaN) - (b?.value ?? NaN))).toBeCloseTo(0, 12);
    const [empty] = clusteredMeans([], 1, { bootstrap: 100 });
    expect(Number.isNaN(empty?.value)).toBe(true);
    expect(empty).toMatchObject({ tasks: 0, n: 0, seeds: 0 });
  });
});
