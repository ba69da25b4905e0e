// The renderer reads a report's budget labels back as budgets to order a chart's facet: on the axis, not by text.
import { describe, expect, it } from "vitest";
import { budgetLabelOrder } from "../../../src/report/html/budget-labels.js";

describe("budgetLabelOrder", () => {
  it("orders labels from several analyses on the budget axis, once each, non-budgets last", () => {
    expect(budgetLabelOrder(["50%", "8", "1.5x", "pooled", "12.5%", "2", "100%", "1x", "50%"])).toEqual([
      "12.5%",
      "50%",
      "100%",
      "1x",
      "1.5x",
      "2",
      "8",
      "pooled",
    ]);
    expect(budgetLabelOrder([])).toEqual([]);
  });
});
