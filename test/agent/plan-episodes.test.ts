// The one episode planner: an evaluation's episodes (task, then budget, then sample) seeded by common random
// numbers across budgets; skips. (An RL step's seeding: test/rl/rollouts.test.ts.)
import { describe, expect, it } from "vitest";
import { commonRandomNumbers, episodeSeed, planEpisodes, planTaskEpisodes } from "../../src/agent/plan-episodes.js";
import { parseBudgetList } from "../../src/core/budget.js";
import type { AnyEnv } from "../../src/core/env.js";
import { hanoi } from "../../src/envs/hanoi/index.js";

const env = hanoi({ disks: 3, randomStart: true }) as AnyEnv;
const tasks = [env.tasks.generate(1), env.tasks.generate(2)];
const budgets = parseBudgetList("1x,2x");

describe("planEpisodes", () => {
  it("plans task x budget x sample in order, each budget resolved for its task, the same seed for a sample at every budget", async () => {
    const specs = [];
    for await (const spec of planEpisodes(env, { run: "r", seed: 7, tasks, budgets, mode: "announced", samples: 2 }))
      specs.push(spec);
    expect(specs.map((spec) => [spec.taskIndex, spec.budget.label, spec.sample])).toEqual([
      [0, "1x", 0],
      [0, "1x", 1],
      [0, "2x", 0],
      [0, "2x", 1],
      [1, "1x", 0],
      [1, "1x", 1],
      [1, "2x", 0],
      [1, "2x", 1],
    ]);
    const optimal = env.tasks.optimalTurns?.(tasks[0], "episode") as number;
    expect(specs[2]?.budget.turns).toBe(2 * optimal);
    expect(specs[0]?.seed).toBe(specs[2]?.seed);
    expect(specs[0]?.seed).toBe(episodeSeed(7, env.tasks.id(tasks[0]), 0));
    expect(specs.some((spec) => spec.group !== undefined)).toBe(false);
  });

  it("skips the episodes it is told were stored", () => {
    const skip = (key: { readonly budgetLabel: string; readonly sample: number }): boolean =>
      key.budgetLabel === "1x" && key.sample === 1;
    const specs = planTaskEpisodes(env, tasks[0], 0, {
      run: "r",
      budgets,
      mode: "hidden",
      samples: 2,
      seeding: commonRandomNumbers(7),
      skip,
    });
    expect(specs.map((spec) => `${spec.budget.label}/${spec.sample}`)).toEqual(["1x/0", "2x/0", "2x/1"]);
  });
});
