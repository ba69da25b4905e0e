// The interval over seeds and tasks in simulated studies with known seed, task and residual spreads: its 95% intervals
// cover the true mean about 95% of the time at 3, 6 and 10 seeds, and when seeds do not matter at all; the
// percentile bootstrap over 3 seeds, then tasks (the plans of version 1) falls short. About 8 s: left to npm test
// (vitest.unit.config.ts).
import { describe, expect, it } from "vitest";
import { createRng, type Rng } from "../../src/core/rng.js";
import { crossedMeans, type SeedValues } from "../../src/metrics/crossed-mean.js";
import { seedBootstrapMeans } from "./seed-bootstrap.js";

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
