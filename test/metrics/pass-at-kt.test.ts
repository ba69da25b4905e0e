import { describe, expect, it } from "vitest";
import { parseBudgetList } from "../../src/core/budget.js";
import type { OutcomeCounts } from "../../src/core/outcome.js";
import { normalisedArea } from "../../src/metrics/auc.js";
import { bootstrapIndices, bootstrapInterval, quantile } from "../../src/metrics/bootstrap.js";
import { budgetAxis } from "../../src/metrics/budget-axis.js";
import { passAtK } from "../../src/metrics/pass-at-k.js";
import { countsWithinBudgets, passAtKT } from "../../src/metrics/pass-at-kt.js";

const counts: OutcomeCounts[] = [
  { taskIndex: 0, budget: "50%", n: 4, c: 1 },
  { taskIndex: 0, budget: "100%", n: 4, c: 3 },
  { taskIndex: 1, budget: "50%", n: 4, c: 0 },
  { taskIndex: 1, budget: "100%", n: 4, c: 4 },
];
const halfAndFull = parseBudgetList("100%,50%");

describe("passAtKT", () => {
  it("averages per-task pass@K for every (K, T) and orders budgets on their axis", () => {
    const table = passAtKT(counts, { ks: [1, 2], budgets: halfAndFull, bootstrap: 0 });
    expect(table.budgets.map((spec) => spec.label)).toEqual(["50%", "100%"]);
    expect(table.cells[0]?.[0]?.value).toBeCloseTo((0.25 + 0) / 2, 12);
    expect(table.cells[0]?.[1]?.value).toBeCloseTo((0.75 + 1) / 2, 12);
    expect(table.cells[1]?.[0]?.value).toBeCloseTo((passAtK(4, 1, 2) + 0) / 2, 12);
    expect(table.tasks).toBe(2);
    expect(table.minSamples).toBe(4);
  });

  it("computes the normalised AUC from (0, 0) by trapezoids", () => {
    const table = passAtKT(counts, { ks: [1], budgets: halfAndFull, bootstrap: 0 });
    // x = 0.5 -> 0.125, x = 1 -> 0.875: area = 0.5*0.125/2 + 0.5*(0.125+0.875)/2 = 0.28125
    expect(table.auc[0]?.value).toBeCloseTo(0.28125, 12);
    expect(normalisedArea([1, 2, 4], [1, 1, 1])).toBeCloseTo(7 / 8, 12);
    expect(
      passAtKT(
        [
          { taskIndex: 0, budget: "5", n: 1, c: 1 },
          { taskIndex: 0, budget: "50%", n: 1, c: 1 },
        ],
        { ks: [1], budgets: parseBudgetList("5,50%"), bootstrap: 0 },
      ).auc[0],
    ).toBeNull();
  });

  it("gives seeded, reproducible intervals that contain the estimate", () => {
    const many: OutcomeCounts[] = Array.from({ length: 40 }, (_, task) => ({
      taskIndex: task,
      budget: "8",
      n: 10,
      c: task % 11,
    }));
    const a = passAtKT(many, { ks: [1, 5], budgets: parseBudgetList("8"), bootstrap: 500, seed: 3 });
    const b = passAtKT(many, { ks: [1, 5], budgets: parseBudgetList("8"), bootstrap: 500, seed: 3 });
    expect(a).toEqual(b);
    for (const row of a.cells) {
      const cell = row[0]!;
      expect(cell.low).toBeLessThanOrEqual(cell.value);
      expect(cell.high).toBeGreaterThanOrEqual(cell.value);
      expect(cell.high - cell.low).toBeGreaterThan(0);
    }
  });

  it("adds up the counts of one task and budget from several rows (a study's seeds pooled), never keeping only the last", () => {
    // Two seeds of one model on the same task: 4 of 4 in one, 0 of 4 in the other; pooled, Pass@1 is 0.5 on 8 samples.
    const seeds: OutcomeCounts[] = [
      { taskIndex: 0, budget: "100%", n: 4, c: 4 },
      { taskIndex: 0, budget: "100%", n: 4, c: 0 },
    ];
    const table = passAtKT(seeds, { ks: [1, 8], budgets: parseBudgetList("100%"), bootstrap: 0 });
    expect(table.cells[0]?.[0]?.value).toBeCloseTo(0.5, 12);
    expect(table.cells[1]?.[0]?.value).toBe(1);
    expect(table.minSamples).toBe(8);
  });

  it("skips tasks with fewer than K samples at some budget", () => {
    const partial = [
      ...counts,
      { taskIndex: 2, budget: "50%", n: 1, c: 1 },
      { taskIndex: 2, budget: "100%", n: 4, c: 4 },
    ];
    const table = passAtKT(partial, { ks: [1, 2], budgets: halfAndFull, bootstrap: 0 });
    expect(table.cells[0]?.[0]?.tasks).toBe(3);
    expect(table.cells[1]?.[0]?.tasks).toBe(2);
  });
});

describe("protocol (b) counts", () => {
  it("counts success within each T from the turn of first success", () => {
    const episodes = [
      { taskIndex: 0, successTurn: 3 },
      { taskIndex: 0, successTurn: 7 },
      { taskIndex: 0, successTurn: null },
      { taskIndex: 1, successTurn: 1 },
    ];
    const result = countsWithinBudgets(episodes, parseBudgetList("4,8"), (_task, budget) => Number(budget.label));
    expect(result).toEqual([
      { taskIndex: 0, budget: "4", n: 3, c: 1 },
      { taskIndex: 0, budget: "8", n: 3, c: 2 },
      { taskIndex: 1, budget: "4", n: 1, c: 1 },
      { taskIndex: 1, budget: "8", n: 1, c: 1 },
    ]);
  });
});

describe("bootstrap helpers", () => {
  it("matches numpy's linear quantile and collapses for a single task", () => {
    expect(quantile(Float64Array.from([1, 2, 3, 4]), 0.5)).toBe(2.5);
    expect(quantile(Float64Array.from([0, 10]), 0.025)).toBeCloseTo(0.25, 12);
    const interval = bootstrapInterval(Float64Array.from([0.7]), bootstrapIndices(1, 100, 1));
    expect(interval).toEqual({ low: 0.7, high: 0.7 });
  });

  it("orders mixed-free budget axes and refuses mixes", () => {
    expect(budgetAxis(parseBudgetList("100%,25%"))?.map((point) => point.x)).toEqual([0.25, 1]);
    expect(budgetAxis(parseBudgetList("8,25%"))).toBeNull();
  });
});
