import { describe, expect, it } from "vitest";
import {
  budgetTurns,
  measureBudgetTradeoff,
  STUDY_MULTIPLES,
  type TradeoffTask,
} from "../../../src/envs/shared/budget-tradeoff.js";
import { buildMdp, FAILURE, LIVE, solveMdp, SUCCESS } from "../../../src/envs/shared/finite-mdp.js";

/** A risk against time by hand: from the start (state 0), action 0 takes a route of `risky` moves whose first
 * fails with probability q, action 1 a sure route of `safe` moves; on a route only action 0 goes on. The
 * optimal length is `risky`. */
function riskOrDetour(risky: number, safe: number, q: number): TradeoffTask {
  const success = risky + safe - 1;
  const failure = success + 1;
  const lastRisky = risky - 1;
  const lastSafe = risky + safe - 2;
  const end = (state: number): number => (state === success ? SUCCESS : state === failure ? FAILURE : LIVE);
  const mdp = buildMdp(failure + 1, 2, end, (state, action) => {
    if (state === 0)
      return action === 0
        ? [
            [risky > 1 ? 1 : success, 1 - q],
            [failure, q],
          ]
        : [[safe > 1 ? risky : success, 1]];
    if (action === 1) return null;
    return [[state === lastRisky || state === lastSafe ? success : state + 1, 1]];
  });
  const solution = solveMdp(mdp);
  expect(solution.remaining[0]).toBe(risky);
  return { solution, start: 0, optimal: risky };
}

const close = (values: readonly number[], expected: readonly number[]): void => {
  expect(values).toHaveLength(expected.length);
  values.forEach((value, index) => expect(value).toBeCloseTo(expected[index]!, 12));
};

describe("budget trade-off", () => {
  it("writes budgets as ceil(multiple x optimal) in integers", () => {
    expect(STUDY_MULTIPLES.map((multiple) => multiple.label)).toEqual(["1.25x", "1.5x", "2x", "3x"]);
    expect(STUDY_MULTIPLES.map((multiple) => budgetTurns(multiple, 4))).toEqual([5, 6, 8, 12]);
    expect(STUDY_MULTIPLES.map((multiple) => budgetTurns(multiple, 2))).toEqual([3, 3, 4, 6]);
  });

  it("averages each play over the tasks, counts their optimal lengths, and finds the best blind play", () => {
    // Optimal 4, detour 6: budgets 5, 6, 8, 12; only 5 is too short for the detour.
    // Optimal 2, detour 4: budgets 3, 3, 4, 6; 3 is too short for it.
    const table = measureBudgetTradeoff(
      [
        [4, 6, 0.2],
        [2, 4, 0.5],
      ] as const,
      ([risky, safe, q]) => riskOrDetour(risky, safe, q),
    );
    expect(table.tasks).toBe(2);
    expect(table.multiples).toEqual(["1.25x", "1.5x", "2x", "3x"]);
    close(table.aware, [0.65, 0.75, 1, 1]);
    close(table.assumed[0]!, [0.65, 0.65, 0.65, 0.65]);
    close(table.assumed[1]!, [0.25, 0.75, 0.75, 0.75]);
    close(table.assumed[2]!, [0, 0.5, 1, 1]);
    close(table.assumed[3]!, [0, 0.5, 1, 1]);
    close(table.unbounded, [0, 0.5, 1, 1]);
    expect(table.bestBlind.label).toBe("1.25x");
    expect(table.bestBlind.tied).toEqual([]);
    close(table.bestBlind.loss, [0, 0.1, 0.35, 0.35]);
    expect(table.lengths).toEqual([
      [2, 1],
      [4, 1],
    ]);
  });

  it("takes the first believed budget among those tied within 1e-9", () => {
    const bestOf = (q: number) => measureBudgetTradeoff([q], (task) => riskOrDetour(4, 6, task)).bestBlind;
    // Believing 1.25x: 1 - q at every budget; every other belief: 0, 1, 1, 1 (mean 0.75).
    expect(bestOf(0.25)).toMatchObject({ label: "1.25x", tied: ["1.5x", "2x", "3x", "unlimited"] });
    expect(bestOf(0.25 + 1e-12)).toMatchObject({ label: "1.25x", tied: ["1.5x", "2x", "3x", "unlimited"] });
    expect(bestOf(0.25 + 1e-6)).toMatchObject({ label: "1.5x", tied: ["2x", "3x", "unlimited"] });
    close(bestOf(0.5).loss, [0.5, 0, 0, 0]);
  });

  it("measures at the multiples it is given", () => {
    const table = measureBudgetTradeoff([0.2], (q) => riskOrDetour(4, 6, q), [
      { label: "1x", numerator: 1, denominator: 1 },
      { label: "2x", numerator: 2, denominator: 1 },
    ]);
    expect(table.multiples).toEqual(["1x", "2x"]);
    close(table.aware, [0.8, 1]);
    expect(table.assumed).toHaveLength(2);
    close(table.assumed[1]!, [0, 1]);
  });
});
