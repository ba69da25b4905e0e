// Rows of in-memory episodes carry the budget spec each episode was played under, found by its label among the
// budgets given; an episode under a budget not given is refused rather than left off the axis.
import { describe, expect, it } from "vitest";
import { parseBudgetList } from "../../src/core/budget.js";
import { ConfigError } from "../../src/core/errors.js";
import { episodeOutcomesOf, invalidCountsOf, stepCountsOf } from "../../src/metrics/episode-rows.js";
import { episode } from "../helpers/episodes.js";

const played = [
  episode({ task: 0, budget: "25%", success: false, turns: [true, false] }),
  episode({ task: 1, budget: "100%", success: true, turns: [true] }),
];

describe("episode rows", () => {
  it("give each row the spec its episode's budget label names, the very object given", () => {
    const budgets = parseBudgetList("100%,25%");
    const [full, quarter] = budgets;
    expect(stepCountsOf(played, budgets).map((row) => [row.taskIndex, row.budget])).toEqual([
      [0, quarter],
      [0, quarter],
      [1, full],
    ]);
    expect(episodeOutcomesOf(played, budgets).map((row) => row.budget)).toEqual([quarter, full]);
    expect(invalidCountsOf(played, budgets)[1]?.budget).toBe(full);
  });

  it("refuse an episode played under a budget the list does not have", () => {
    expect(() => stepCountsOf(played, parseBudgetList("25%,50%"))).toThrow(ConfigError);
    expect(() => episodeOutcomesOf(played, parseBudgetList("25%"))).toThrow(
      /episode 1\/0 was played under budget "100%", which the budgets given \(25%\) do not list/,
    );
  });
});
