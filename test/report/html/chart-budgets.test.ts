// The charts lay budgets out on the budget axis even when the models' tables hold different budgets (a store
// mixing runs): the union of their budgets is ordered by kind and size, not by first appearance.
import { describe, expect, it } from "vitest";
import { passCharts } from "../../../src/report/html/charts.js";
import type { JsonEstimate, StudyReport } from "../../../src/report/study-model.js";

const estimate: JsonEstimate = { value: 0.5, low: 0.4, high: 0.6, tasks: 20, n: 40 };

const table = (model: string, budgets: string[]) => ({
  variant: "sokoban",
  model,
  mode: "announced",
  ks: [1, 2],
  budgets,
  cells: [budgets.map(() => estimate), budgets.map(() => estimate)],
  auc: [null, null],
});

describe("budget order in the charts", () => {
  it("orders the union of the tables' budgets on the axis (12.5% before 25%, whichever table came first)", () => {
    const report = {
      models: [{ name: "a" }, { name: "b" }],
      passTables: [table("a", ["25%", "50%", "100%"]), table("b", ["12.5%", "100%"])],
    } as unknown as StudyReport;
    const charts = passCharts(report);
    const passT = charts.find((chart) => chart.id === "pass-t-sokoban");
    expect(JSON.stringify(passT?.spec)).toContain('"sort":["12.5%","25%","50%","100%"]');
  });
});
