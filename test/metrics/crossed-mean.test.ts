// The interval over seeds and tasks: its point estimate weighs strata, seeds and tasks as the header says, and its
// bounds are the formulas' (checked against numpy and scipy.stats.t on a small layout). Its coverage in simulated
// studies: crossed-mean-coverage.test.ts.
import { describe, expect, it } from "vitest";
import { crossedMeans, type SeedValues } from "../../src/metrics/crossed-mean.js";

const cell = (stratum: string, seed: number, values: readonly number[]): SeedValues => ({
  stratum,
  seed,
  values: new Map(values.map((value, task) => [task, [value]] as const)),
});

describe("crossedMeans", () => {
  it("weighs each stratum the same, whatever its number of tasks, and each seed the same within it", () => {
    const [estimate] = crossedMeans([cell("a", 1, [1, 1, 1, 1]), cell("b", 1, [0]), cell("b", 2, [1])], 1);
    // a: 1; b: mean of seed 1 (0) and seed 2 (1) = 0.5; strata: (1 + 0.5) / 2.
    expect(estimate?.value).toBeCloseTo(0.75, 12);
    expect(estimate).toMatchObject({ tasks: 5, n: 6, seeds: 2 });
  });

  it("with one seed is the t interval over tasks (numpy, scipy.stats.t)", () => {
    const [estimate] = crossedMeans([cell("a", 1, [0.1, 0.5, 0.3, 0.9, 0.4])], 1);
    expect(estimate?.value).toBeCloseTo(0.44, 12);
    expect(estimate?.low).toBeCloseTo(0.07166293340160368, 10);
    expect(estimate?.high).toBeCloseTo(0.8083370665983962, 10);
  });

  it("gives the header's interval on two strata and three seeds (numpy, scipy.stats.t)", () => {
    const a = [
      [0.1, 0.5, 0.3, 0.9],
      [0.2, 0.4, 0.6, 0.7],
      [0.0, 0.6, 0.2, 0.8],
    ];
    const b = [
      [1.0, 0.0, 0.5, 0.5, 0.25],
      [0.75, 0.25, 0.5, 0.25, 0.0],
      [0.5, 0.5, 1.0, 0.0, 0.25],
    ];
    const cells = [0, 1, 2].flatMap((seed) => [cell("a", seed + 1, a[seed]!), cell("b", seed + 1, b[seed]!)]);
    const [estimate] = crossedMeans(cells, 1);
    expect(estimate?.value).toBeCloseTo(0.4291666666666667, 12);
    expect(estimate?.low).toBeCloseTo(0.2168275472043857, 10);
    expect(estimate?.high).toBeCloseTo(0.6415057861289477, 10);
    expect(estimate?.se).toBeCloseTo(0.08630131323836658, 10);
    expect(estimate?.df).toBe(2);
  });

  it("reads seeds that disagree with t on S - 1 degrees of freedom: two seeds at +-0.2 give a wide interval", () => {
    const tasks = Array.from({ length: 40 }, () => 0.5);
    const [estimate] = crossedMeans(
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
    );
    // sd of the two seed means 0.283, SE 0.2, t_1 = 12.71: half-width 2.54 (a bootstrap would give [0.3, 0.7]).
    expect(estimate?.value).toBeCloseTo(0.5, 12);
    expect((estimate?.high ?? 0) - 0.5).toBeCloseTo(12.706204736174703 * 0.2, 8);
  });

  it("keeps several series aligned, collapses when every value is equal, and gives NaN without data", () => {
    const rows = new Map([
      [0, [0.2, 0.5, 0.3]],
      [1, [0.4, 0.6, 0.2]],
      [2, [0.0, 0.1, 0.1]],
    ] as const);
    const [difference, a, b] = crossedMeans([{ stratum: "a", seed: 1, values: rows }], 3);
    expect((difference?.value ?? NaN) - ((a?.value ?? NaN) - (b?.value ?? NaN))).toBeCloseTo(0, 12);
    const [flat] = crossedMeans([cell("a", 1, [0.3, 0.3]), cell("a", 2, [0.3, 0.3])], 1);
    expect([flat?.low, flat?.high]).toEqual([0.3, 0.3]);
    const [empty] = crossedMeans([], 1);
    expect(Number.isNaN(empty?.value)).toBe(true);
    expect(empty).toMatchObject({ tasks: 0, n: 0, seeds: 0 });
  });
});
