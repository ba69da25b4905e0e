// The interval over seeds and tasks: its point estimate weighs strata, seeds and tasks as the header says, its bounds
// are the formulas' (checked against numpy and scipy.stats.t on a small layout), and in simulated studies with known
// seed, task and residual spreads its 95% intervals cover the true mean about 95% of the time at 3, 6 and 10 seeds,
// where the percentile bootstrap over 3 seeds, then tasks (the plans of version 1) falls short.
import { describe, expect, it } from "vitest";
import { createRng, type Rng } from "../../src/core/rng.js";
import { crossedMeans, type SeedValues } from "../../src/metrics/crossed-mean.js";
import { seedBootstrapMeans } from "./seed-bootstrap.js";

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

/** Spreads of a simulated study: seed effects (shared by the strata), task effects, and per-cell noise. */
interface Spread {
  readonly seed: number;
  readonly task: number;
  readonly residual: number;
}

const gauss = (rng: Rng): number => Math.sqrt(-2 * Math.log(1 - rng.next())) * Math.cos(2 * Math.PI * rng.next());

/** A study of two strata of 60 tasks: per cell a Pass@1 difference from 8 episodes of two models, whose success
 * probabilities are a task's logit plus (for model a) the seed's effect, the true mean difference being `truth`. */
function simulatedStudy(rng: Rng, seeds: number, spread: Spread): SeedValues[] {
  const seedEffects = Array.from({ length: seeds }, () => spread.seed * gauss(rng));
  return ["vault", "thinice"].flatMap((stratum) => {
    const tasks = Array.from({ length: 60 }, () => spread.task * gauss(rng));
    return seedEffects.map((effect, seed) => ({
      stratum,
      seed,
      values: new Map(
        tasks.map((logit, task) => {
          const episodes = (shift: number): number => {
            const p = 1 / (1 + Math.exp(-(logit + shift + spread.residual * gauss(rng))));
            let wins = 0;
            for (let i = 0; i < 8; i++) if (rng.next() < p) wins++;
            return wins / 8;
          };
          return [task, [episodes(0.5 + effect) - episodes(0)]] as const;
        }),
      ),
    }));
  });
}

/** The true mean difference of a spread, from a very large simulated study. */
function truth(spread: Spread): number {
  const rng = createRng(99);
  let sum = 0;
  let count = 0;
  for (let study = 0; study < 40; study++)
    for (const entry of simulatedStudy(rng, 25, spread))
      for (const [value] of entry.values.values()) {
        sum += value!;
        count++;
      }
  return sum / count;
}

function coverage(
  spread: Spread,
  seeds: number,
  studies: number,
  interval: (cells: readonly SeedValues[], index: number) => { low: number; high: number },
): number {
  const mean = truth(spread);
  const rng = createRng(1000 + seeds);
  let covered = 0;
  for (let study = 0; study < studies; study++) {
    const { low, high } = interval(simulatedStudy(rng, seeds, spread), study);
    if (low <= mean && mean <= high) covered++;
  }
  return covered / studies;
}

describe("crossedMeans' coverage in simulated studies", () => {
  // Seeds matter as much as in the study (RL runs that collapse in some seeds), tasks a lot, episodes add noise.
  const SEEDS_MATTER: Spread = { seed: 0.6, task: 1.5, residual: 0.3 };
  // Seeds do not matter at all: the interval must not be inflated into uselessness (nor undercover).
  const SEEDS_IDLE: Spread = { seed: 0, task: 1.5, residual: 0.3 };
  const crossed = (cells: readonly SeedValues[]) => crossedMeans(cells, 1)[0]!;

  it.each([3, 6, 10])("covers the mean 95 times in 100, about, with %i seeds where seeds matter", (seeds) => {
    const rate = coverage(SEEDS_MATTER, seeds, 600, crossed);
    expect(rate).toBeGreaterThan(0.925);
    expect(rate).toBeLessThan(0.985);
  });

  it("covers the mean 95 times in 100, about, with 3 seeds that do not matter", () => {
    const rate = coverage(SEEDS_IDLE, 3, 600, crossed);
    expect(rate).toBeGreaterThan(0.925);
    expect(rate).toBeLessThan(0.985);
  });

  it("the percentile bootstrap over 3 seeds, then tasks, does not: it cannot reach past the seeds' range", () => {
    const rate = coverage(
      SEEDS_MATTER,
      3,
      300,
      (cells, index) => seedBootstrapMeans(cells, 1, { bootstrap: 200, seed: index })[0]!,
    );
    expect(rate).toBeLessThan(0.88);
  });
});
