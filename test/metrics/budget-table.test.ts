import { describe, expect, it } from "vitest";
import { parseBudgetList } from "../../src/core/budget.js";
import type { OutcomeCounts } from "../../src/core/outcome.js";
import { budgetTable, commonK } from "../../src/metrics/budget-table.js";
import { passAtKT } from "../../src/metrics/pass-at-kt.js";
import { perTaskPassAtK } from "../../src/metrics/per-task-pass.js";
import { passAtK } from "../../src/metrics/pass-at-k.js";

const counts = (c25: number, c100: number): OutcomeCounts[] => [
  { taskIndex: 0, budget: "25%", n: 8, c: c25 },
  { taskIndex: 0, budget: "100%", n: 8, c: c100 },
  { taskIndex: 1, budget: "25%", n: 8, c: 0 },
  { taskIndex: 1, budget: "100%", n: 8, c: c100 },
];
const budgets = parseBudgetList("100%,25%");

describe("budgetTable", () => {
  const base = passAtKT(counts(1, 4), { ks: [1, 4, 8], budgets, bootstrap: 0 });
  const trained = passAtKT(counts(2, 8), { ks: [1, 4], budgets, bootstrap: 0 });
  const table = budgetTable([
    { model: "base", mode: "announced", table: base },
    { model: "GRPO-Full", mode: "announced", table: trained },
    { model: "GRPO-Full", mode: "hidden", table: trained },
  ]);

  it("lays out Pass@1 and Pass@K per budget, one row per model and mode", () => {
    expect(table.budgets.map((spec) => spec.label)).toEqual(["25%", "100%"]);
    expect(table.k).toBe(4);
    expect(table.modes).toEqual(["announced", "hidden"]);
    expect(table.rows.map((row) => [row.model, row.mode])).toEqual([
      ["base", "announced"],
      ["GRPO-Full", "announced"],
      ["GRPO-Full", "hidden"],
    ]);
    expect(table.rows[0]?.pass1[0]?.value).toBeCloseTo(1 / 16, 12);
    expect(table.rows[0]?.pass1[1]?.value).toBeCloseTo(0.5, 12);
    expect(table.rows[1]?.passK[0]?.value).toBeCloseTo(passAtK(8, 2, 4) / 2, 12);
  });

  it("picks the K most tables hold, and leaves missing cells empty", () => {
    expect(commonK([base, trained])).toBe(4);
    const only1 = passAtKT(counts(1, 1), { ks: [1], budgets, bootstrap: 0 });
    expect(commonK([only1, base])).toBe(8);
    expect(commonK([only1])).toBeNull();
    expect(
      budgetTable([
        { model: "x", mode: "announced", table: only1 },
        { model: "y", mode: "announced", table: trained },
      ]).rows[0]?.passK,
    ).toEqual([null, null]);
    const partial = budgetTable([{ model: "base", mode: "announced", table: base }], {
      budgets: parseBudgetList("25%,50%"),
      k: 8,
    });
    expect(partial.rows[0]?.pass1[1]).toBeNull();
    expect(partial.rows[0]?.passK[0]?.value).toBeCloseTo(passAtK(8, 1, 8) / 2, 12);
  });
});

describe("perTaskPassAtK", () => {
  it("adds up counts of one task split over runs and keeps tasks with at least K samples", () => {
    const rows: OutcomeCounts[] = [
      { taskIndex: 2, budget: "25%", n: 2, c: 1 },
      { taskIndex: 2, budget: "25%", n: 2, c: 1 },
      { taskIndex: 5, budget: "25%", n: 1, c: 1 },
      { taskIndex: 5, budget: "100%", n: 4, c: 4 },
    ];
    expect(perTaskPassAtK(rows, 1, "25%")).toEqual(
      new Map([
        [2, 0.5],
        [5, 1],
      ]),
    );
    expect(perTaskPassAtK(rows, 4, "25%")).toEqual(new Map([[2, passAtK(4, 2, 4)]]));
  });
});
