import { describe, expect, it } from "vitest";
import { thinIceConfigSchema } from "../../../src/envs/thinice/config.js";
import { formatTradeoff, measureTradeoff, studyBudgets } from "../../../src/envs/thinice/tradeoff.js";
import { parseOptions } from "../../../src/core/options.js";

describe("thinice budget trade-off", () => {
  it("writes the study budgets as ceil(m x optimal length)", () => {
    expect(studyBudgets(2)).toEqual([3, 3, 4, 6]);
    expect(studyBudgets(4)).toEqual([5, 6, 8, 12]);
    expect(studyBudgets(7)).toEqual([9, 11, 14, 21]);
  });

  // The table of docs/envs.md ("thinice") and of src/envs/thinice/index.ts: 1,000 distinct default maps.
  const table = measureTradeoff(parseOptions("thinice", thinIceConfigSchema, {}), 1000);
  const points = (values: readonly number[]) => values.map((value) => Math.round(1000 * value) / 10);

  it("costs budget-blind play at least 20 points at both ends, as documented", () => {
    expect(table.tasks).toBe(1000);
    // (a) the oracle believing 3x, played at 1.25x; (b) believing 1.25x, played at 3x.
    expect(table.aware[0]! - table.assumed[3]![0]!).toBeGreaterThanOrEqual(0.2);
    expect(table.aware[3]! - table.assumed[0]![3]!).toBeGreaterThanOrEqual(0.2);
    expect(points(table.aware)).toEqual(DOCUMENTED.aware);
    expect(table.assumed.map(points)).toEqual(DOCUMENTED.assumed);
    expect(table.bestBlind).toBe(DOCUMENTED.bestBlind);
    expect(points(table.bestBlindLoss)).toEqual(DOCUMENTED.bestBlindLoss);
  });

  it("spans optimal lengths 2 to 10, about evenly", () => {
    expect([...table.lengths.keys()]).toEqual([2, 3, 4, 5, 6, 7, 8, 9, 10]);
    for (const count of table.lengths.values()) expect(count).toBeGreaterThan(80);
    expect(formatTradeoff(table)).toContain("best blind loss");
  });
});

/** Success in % (rounded to 0.1) at 1.25x, 1.5x, 2x, 3x; assumed rows: believes 1.25x, 1.5x, 2x, 3x, unlimited. */
const DOCUMENTED = {
  aware: [49.1, 51.6, 86.7, 100],
  assumed: [
    [49.1, 49.1, 49.1, 49.1],
    [46.9, 51.6, 51.6, 51.6],
    [12.6, 17.3, 86.7, 86.7],
    [0, 4.7, 74.1, 100],
    [0, 4.7, 74.1, 100],
  ],
  bestBlind: 2,
  bestBlindLoss: [36.6, 34.4, 0, 13.3],
};
