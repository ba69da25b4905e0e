// The plan of an RL step's rollouts: the episode planner with the step's seeding (by step and task index), the
// samples of a task one group.
import { describe, expect, it } from "vitest";
import { planTaskEpisodes } from "../../src/agent/plan-episodes.js";
import { parseBudgetList } from "../../src/core/budget.js";
import type { AnyEnv } from "../../src/core/env.js";
import { hanoi } from "../../src/envs/hanoi/index.js";
import { stepSeeding } from "../../src/rl/rollouts.js";

const env = hanoi({ disks: 3, randomStart: true }) as AnyEnv;

describe("an RL step's plan", () => {
  it("seeds by step and task index and makes the samples of a task one group", () => {
    const seeding = stepSeeding(3, 5);
    const specs = planTaskEpisodes(env, env.tasks.generate(2), 1, {
      run: "train",
      budgets: parseBudgetList("1x"),
      mode: "announced",
      samples: 3,
      seeding,
    });
    expect(specs.map((spec) => spec.group)).toEqual(
      [0, 1, 2].map(() => ({ seed: seeding.group?.(1, 3).seed, size: 3 })),
    );
    expect(new Set(specs.map((spec) => spec.seed)).size).toBe(3);
    expect(stepSeeding(3, 6).episode("any", 1, 0)).not.toBe(specs[0]?.seed);
  });
});
