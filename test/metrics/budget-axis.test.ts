// The budget axis: budgets ordered by their kind and size, read from the specs themselves (never from the labels).
import { describe, expect, it } from "vitest";
import { parseBudgetList, type BudgetSpec } from "../../src/core/budget.js";
import { orderBudgets } from "../../src/metrics/budget-axis.js";

const labels = (budgets: readonly BudgetSpec[]): string[] => budgets.map((spec) => spec.label);

describe("orderBudgets", () => {
  it("puts fractions, then multiples, then turns, each by size, once per label", () => {
    const budgets = parseBudgetList("8,100%,1.5x,2,12.5%,1x,50%");
    expect(labels(orderBudgets([...budgets, ...parseBudgetList("50%,2")]))).toEqual([
      "12.5%",
      "50%",
      "100%",
      "1x",
      "1.5x",
      "2",
      "8",
    ]);
    expect(orderBudgets([])).toEqual([]);
  });

  it("orders by the spec, whatever its label says, and keeps budgets of one size in the order given", () => {
    const quarter: BudgetSpec = { kind: "fraction", numerator: 1, denominator: 4, label: "a quarter" };
    const alsoQuarter: BudgetSpec = { kind: "fraction", numerator: 25, denominator: 100, label: "25%" };
    const three: BudgetSpec = { kind: "turns", turns: 3, label: "30" };
    const half: BudgetSpec = { kind: "fraction", numerator: 1, denominator: 2, label: "half" };
    expect(labels(orderBudgets([three, half, quarter, alsoQuarter]))).toEqual(["a quarter", "25%", "half", "30"]);
    expect(orderBudgets([three, half])[1]).toBe(three);
  });
});
