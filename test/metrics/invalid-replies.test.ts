// Invalid-reply rates on hand-built episodes whose answer is known: each task's share of invalid replies among the
// policy's own turns, averaged over tasks per budget; policy errors and turns an intervention played are left out.
import { describe, expect, it } from "vitest";
import { invalidCountsOf } from "../../src/metrics/episode-rows.js";
import { invalidReplies } from "../../src/metrics/invalid-replies.js";
import { budget, episode, HAND_BUDGETS } from "../helpers/episodes.js";

const bad = { invalid: true };
const good = {};

// At 25%: task 0 has 1 invalid of 4 turns (two episodes), task 1 has 3 of 3. At 100%: task 0 has 0 of 5; task 1
// has 1 of 2 own turns (its third was played by an expert), and an errored episode of invalid replies that must not
// count.
const episodes = [
  episode({ task: 0, budget: "25%", success: false, turns: [good, bad] }),
  episode({ task: 0, budget: "25%", sample: 1, success: true, turns: [good, good] }),
  episode({ task: 1, budget: "25%", success: false, turns: [bad, bad, bad] }),
  episode({ task: 0, budget: "100%", success: true, turns: [good, good, good, good, good] }),
  episode({ task: 1, budget: "100%", success: false, turns: [bad, good, { invalid: true, forced: true }] }),
  episode({ task: 1, budget: "100%", sample: 1, success: false, stopReason: "error", turns: [bad, bad] }),
];

describe("invalid replies", () => {
  it("counts the policy's own turns and their invalid replies per task and budget", () => {
    const rows = invalidCountsOf(episodes, HAND_BUDGETS).map((row) => [
      row.taskIndex,
      row.budget.label,
      row.invalid,
      row.turns,
    ]);
    expect(rows).toEqual([
      [0, "25%", 1, 4],
      [1, "25%", 3, 3],
      [0, "100%", 0, 5],
      [1, "100%", 1, 2],
    ]);
  });

  it("averages each task's rate over tasks, per budget in axis order", () => {
    const rates = invalidReplies(invalidCountsOf(episodes, HAND_BUDGETS).reverse(), { bootstrap: 0 });
    expect(rates.map((rate) => [rate.budget, rate.estimate.value, rate.estimate.tasks, rate.estimate.n])).toEqual([
      ["25%", (1 / 4 + 3 / 3) / 2, 2, 7],
      ["100%", (0 / 5 + 1 / 2) / 2, 2, 7],
    ]);
  });

  it("gives an interval over tasks, and nothing without turns", () => {
    const [tight] = invalidReplies(invalidCountsOf(episodes, HAND_BUDGETS), { bootstrap: 500, seed: 3 });
    expect(tight?.estimate.low).toBeGreaterThanOrEqual(0.25);
    expect(tight?.estimate.high).toBeLessThanOrEqual(1);
    expect(tight?.estimate.low).toBeLessThan(tight?.estimate.high ?? 0);
    expect(invalidReplies([])).toEqual([]);
    expect(invalidReplies([{ taskIndex: 0, budget: budget("25%"), invalid: 0, turns: 0 }])).toEqual([]);
  });
});
