import { describe, expect, it } from "vitest";
import { runEpisode } from "../../../src/agent/rollout.js";
import { resolveBudget, taskBudgetBasis } from "../../../src/core/budget.js";
import { sokoban } from "../../../src/envs/sokoban/index.js";
import { oraclePolicy } from "../../../src/policies/scripted/oracle.js";
import { drawBudget, eligibleChoices, parseBudgetSchedule } from "../../../src/rl/schedules/schedule.js";

function histogram(text: string, draws: number, totalSteps = 1): Map<string, number> {
  const schedule = parseBudgetSchedule(text);
  const counts = new Map<string, number>();
  for (let i = 0; i < draws; i++) {
    const label = drawBudget(schedule, {
      step: i % totalSteps,
      group: Math.floor(i / totalSteps),
      totalSteps,
      seed: 1,
    }).label;
    counts.set(label, (counts.get(label) ?? 0) + 1);
  }
  return counts;
}

function chiSquare(counts: Map<string, number>, expected: Record<string, number>): number {
  return Object.entries(expected).reduce(
    (sum, [label, value]) => sum + ((counts.get(label) ?? 0) - value) ** 2 / value,
    0,
  );
}

describe("budget schedules", () => {
  it("budgetmix draws uniformly (chi-square on 10,000 draws)", () => {
    const counts = histogram("budgetmix:25%,50%,75%,100%", 10_000);
    expect(chiSquare(counts, { "25%": 2500, "50%": 2500, "75%": 2500, "100%": 2500 })).toBeLessThan(16.27); // p = 0.001, 3 dof
  });

  it("budgetmix honours weights (chi-square on 10,000 draws)", () => {
    const counts = histogram("budgetmix:25%=1,50%=1,100%=2", 10_000);
    expect(chiSquare(counts, { "25%": 2500, "50%": 2500, "100%": 5000 })).toBeLessThan(13.82); // p = 0.001, 2 dof
  });

  it("fixed always gives its budget; draws are deterministic in (seed, step, group)", () => {
    expect(histogram("fixed:100%", 50)).toEqual(new Map([["100%", 50]]));
    const schedule = parseBudgetSchedule("budgetmix:2,4,8");
    const a = drawBudget(schedule, { step: 3, group: 5, totalSteps: 10, seed: 9 });
    expect(drawBudget(schedule, { step: 3, group: 5, totalSteps: 10, seed: 9 })).toEqual(a);
  });

  it("the curriculum starts at the largest budget and ends with all of them", () => {
    const schedule = parseBudgetSchedule("budgetmix:25%,50%,75%,100%+curriculum");
    expect(eligibleChoices(schedule, 0, 100).map((choice) => choice.spec.label)).toEqual(["100%"]);
    expect(eligibleChoices(schedule, 49, 100).map((choice) => choice.spec.label)).toEqual(["100%", "75%"]);
    expect(eligibleChoices(schedule, 99, 100)).toHaveLength(4);
  });

  it("refuses malformed schedules naming the field", () => {
    expect(() => parseBudgetSchedule("mix:25%")).toThrow(/budget: unknown budget schedule/);
    expect(() => parseBudgetSchedule("budgetmix:")).toThrow(/at least one budget/);
    expect(() => parseBudgetSchedule("budgetmix:25%=0")).toThrow(/weight of 25% must be a positive number/);
    expect(() => parseBudgetSchedule("budgetmix:25%,8")).toThrow(
      /must be of one kind: all turns, all percentages or all multiples of the optimum/,
    );
    expect(() => parseBudgetSchedule("fixed:")).toThrow(/fixed needs a budget/);
  });

  it("announces exactly the drawn budget to the policy", async () => {
    const env = sokoban();
    const schedule = parseBudgetSchedule("budgetmix:25%,50%,75%,100%");
    for (let group = 0; group < 8; group++) {
      const task = env.tasks.generate(group);
      const spec = drawBudget(schedule, { step: 0, group, totalSteps: 1, seed: 4 });
      const budget = resolveBudget(spec, taskBudgetBasis(env, task, "episode"), "announced");
      const episode = await runEpisode(env, oraclePolicy(), {
        run: "t",
        task,
        taskId: "t",
        taskIndex: 0,
        budget,
        sample: 0,
        seed: group,
      });
      expect(
        episode.turns[0]?.observation
          .at(-1)
          ?.content.endsWith(`Turn 1 of ${budget.turns}: ${budget.turns} turns left.`),
      ).toBe(true);
    }
  });
});
