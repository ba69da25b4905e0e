import { describe, expect, it } from "vitest";
import { episodeOutcomesOf } from "../../src/metrics/episode-rows.js";
import { pairPerturbedEpisodes, pairStatus, perturbationRecovery } from "../../src/metrics/perturbation-recovery.js";
import { episode } from "../helpers/episodes.js";

const steps = (count: number): boolean[] => Array.from({ length: count }, () => true);

// Controls: the unperturbed episodes, one per (task, sample), seeds 1000 + 100 task + sample.
const control = [
  episode({ task: 0, sample: 0, success: true, turns: steps(4) }),
  episode({ task: 0, sample: 1, success: true, turns: steps(4) }),
  episode({ task: 1, sample: 0, success: true, turns: steps(4) }),
  episode({ task: 1, sample: 1, success: false, turns: steps(6) }),
  episode({ task: 2, sample: 0, success: true, turns: steps(1) }),
];
// Perturbed at turn 2, same seeds: task 0 recovers once in two; task 1 fails once where the control succeeded and
// once where it failed too. Task 2 ended at turn 1, before the perturbation. Task 3 has no control; task 4's
// control was made with another seed.
const perturbed = [
  episode({ task: 0, sample: 0, success: true, turns: steps(5) }),
  episode({ task: 0, sample: 1, success: false, turns: steps(6) }),
  episode({ task: 1, sample: 0, success: false, turns: steps(6) }),
  episode({ task: 1, sample: 1, success: false, turns: steps(6) }),
  episode({ task: 2, sample: 0, success: true, turns: steps(1) }),
  episode({ task: 3, sample: 0, success: true, turns: steps(3) }),
  episode({ task: 4, sample: 0, success: true, turns: steps(3) }),
];
const controlWithStranger = [...control, episode({ task: 4, sample: 0, seed: 7, success: true, turns: steps(3) })];

describe("perturbation recovery", () => {
  const pairs = pairPerturbedEpisodes(episodeOutcomesOf(perturbed), episodeOutcomesOf(controlWithStranger), 2);

  it("pairs episodes by (task, budget, sample) and refuses pairs that cannot be compared", () => {
    expect(pairs.map((pair) => [pair.perturbed.taskIndex, pair.perturbed.sample, pairStatus(pair)])).toEqual([
      [0, 0, "paired"],
      [0, 1, "paired"],
      [1, 0, "paired"],
      [1, 1, "paired"],
      [2, 0, "not-reached"],
      [3, 0, "no-control"],
      [4, 0, "seed-mismatch"],
    ]);
    // Another budget label or sample never pairs.
    const other = pairPerturbedEpisodes(episodeOutcomesOf([episode({ task: 0, budget: "25%", success: true, turns: steps(3) })]), episodeOutcomesOf(control), 2);
    expect(pairStatus(other[0] as (typeof other)[number])).toBe("no-control");
    // Turn j reached, but nothing could be forced there (every valid action was optimal): left out.
    const unforced = { ...(pairs[0] as (typeof pairs)[number]), forced: false };
    expect(pairStatus(unforced)).toBe("not-forced");
    expect(perturbationRecovery([unforced], { bootstrap: 0 }).excluded).toEqual({ noControl: 0, seedMismatch: 0, notReached: 0, notForced: 1 });
  });

  it("gives the paired drop in success, over tasks", () => {
    const result = perturbationRecovery(pairs, { bootstrap: 0 });
    expect(result.excluded).toEqual({ noControl: 1, seedMismatch: 1, notReached: 1, notForced: 0 });
    expect(result.cells.map((cell) => [cell.perturbTurn, cell.budget])).toEqual([
      [2, "100%"],
      [2, "pooled"],
    ]);
    const cell = result.cells[0];
    // Task 0: perturbed 1/2, control 2/2 -> -0.5. Task 1: perturbed 0/2, control 1/2 -> -0.5.
    expect(cell?.perturbed.value).toBeCloseTo(0.25, 12);
    expect(cell?.control.value).toBeCloseTo(0.75, 12);
    expect(cell?.difference.value).toBeCloseTo(-0.5, 12);
    expect(cell).toMatchObject({ pairs: 4 });
    expect(cell?.difference.tasks).toBe(2);
  });

  it("resamples tasks with their pairs, so a constant drop has a zero-width interval", () => {
    const many = Array.from({ length: 20 }, (_, task) => [
      { perturbTurn: 3, perturbed: { taskIndex: task, budget: "50%", sample: 0, seed: task, success: false, turnsUsed: 5 }, control: { taskIndex: task, budget: "50%", sample: 0, seed: task, success: true, turnsUsed: 5 } },
      { perturbTurn: 3, perturbed: { taskIndex: task, budget: "50%", sample: 1, seed: task + 99, success: task % 2 === 0, turnsUsed: 5 }, control: { taskIndex: task, budget: "50%", sample: 1, seed: task + 99, success: task % 2 === 0, turnsUsed: 5 } },
    ]).flat();
    const cell = perturbationRecovery(many, { bootstrap: 300, seed: 2 }).cells[0];
    expect(cell?.difference).toMatchObject({ value: -0.5, low: -0.5, high: -0.5, tasks: 20 });
    // The success rates themselves vary between tasks, so their intervals do not collapse.
    expect((cell?.control.high ?? 0) - (cell?.control.low ?? 0)).toBeGreaterThan(0.05);
  });
});
