// The chart specs: what a reader sees of them that a spec change could silently break (legend swatches,
// colours kept across charts, the smoothing of the training curves, widths that fit the page, the zero line of
// the forest plots).
import { describe, expect, it } from "vitest";
import type { JsonObject } from "../../../src/core/json.js";
import {
  bandedLines,
  CHART_WIDTH,
  estimateFields,
  fitWidth,
  LEFT_MARGIN,
  LEGEND_WIDTH,
  modelColor,
  PANEL_SPACING,
  wrapColumns,
} from "../../../src/report/html/chart-kit.js";
import { forestDomain } from "../../../src/report/html/chart-kit.js";
import { trailingMeans } from "../../../src/report/html/training-charts.js";

describe("bandedLines", () => {
  it("draws the interval band with a pale fill but no mark opacity, which the shared legend would take for its swatches", () => {
    const rows = [{ model: "base", budget: "25%", value: 0.2, low: 0.1, high: 0.3 }];
    const spec = bandedLines(rows, {
      x: { field: "budget", type: "ordinal" },
      y: "success",
      color: modelColor(["base"]),
    });
    const layers = spec["layer"] as { mark: Record<string, unknown> }[];
    const band = layers.find((layer) => layer.mark["type"] === "area")!;
    expect(band.mark["opacity"]).toBeUndefined();
    expect(band.mark["fillOpacity"]).toBeLessThan(0.5);
    expect(layers.find((layer) => layer.mark["type"] === "line")!.mark["opacity"]).toBeUndefined();
  });
});

describe("modelColor", () => {
  it("gives a model the same colour whether all models or only some are shown", () => {
    const all = modelColor(["base", "GRPO-Full", "BudgetMix"]);
    const some = modelColor(["base", "GRPO-Full", "BudgetMix"], "training run", ["BudgetMix", "GRPO-Full"]);
    const colourIn = (spec: JsonObject, name: string): unknown => {
      const scale = spec["scale"] as { domain: string[]; range: string[] };
      return scale.range[scale.domain.indexOf(name)];
    };
    expect(colourIn(some, "GRPO-Full")).toBe(colourIn(all, "GRPO-Full"));
    expect(colourIn(some, "BudgetMix")).toBe(colourIn(all, "BudgetMix"));
    expect((some["scale"] as { domain: string[] }).domain).toEqual(["BudgetMix", "GRPO-Full"]);
  });
});

describe("trailingMeans", () => {
  it("averages the last `window` values (fewer at the start) and keeps each window's extremes", () => {
    expect(trailingMeans([1, 3, 5, 7], 2)).toEqual([
      { mean: 1, low: 1, high: 1 },
      { mean: 2, low: 1, high: 3 },
      { mean: 4, low: 3, high: 5 },
      { mean: 6, low: 5, high: 7 },
    ]);
    expect(trailingMeans([], 10)).toEqual([]);
  });
});

describe("chart widths", () => {
  it("shrinks panels side by side until they fit, never widening them", () => {
    expect(fitWidth(4, 170)).toBe(170);
    const width = fitWidth(8, 170);
    expect(width).toBeLessThan(170);
    expect(8 * width + 7 * PANEL_SPACING + LEFT_MARGIN + LEGEND_WIDTH).toBeLessThanOrEqual(CHART_WIDTH);
    expect(9 * width + 8 * PANEL_SPACING + LEFT_MARGIN + LEGEND_WIDTH).toBeGreaterThan(CHART_WIDTH - 9);
  });

  it("wraps panels into rows that fit, keeping a model's panels together", () => {
    // 6 models x 2 modes of 4 budgets x 46 px: four panels a row, two models.
    expect(wrapColumns(12, 184, { panelMargin: 35, reserve: 100, multiple: 2 })).toBe(4);
    // Three would fit but would split a model's pair: two.
    expect(wrapColumns(12, 300, { panelMargin: 35, reserve: 100, multiple: 2 })).toBe(2);
    expect(wrapColumns(3, 184, { panelMargin: 35, reserve: 100 })).toBe(3);
    expect(wrapColumns(12, 2000)).toBe(1);
  });
});

describe("estimateFields", () => {
  it("gives values, intervals and the tooltip in % when asked", () => {
    const estimate = { value: 0.25, low: 0.125, high: 0.5, tasks: 8, n: 32 };
    expect(estimateFields(estimate)).toEqual({
      value: 0.25,
      low: 0.125,
      high: 0.5,
      tasks: 8,
      label: "0.250 [0.125, 0.500]",
    });
    expect(estimateFields(estimate, "percent")).toEqual({
      value: 25,
      low: 12.5,
      high: 50,
      tasks: 8,
      label: "25.0% [12.5%, 50.0%]",
    });
  });
});

describe("forestDomain", () => {
  it("always holds zero with a margin on both sides, wherever the intervals fall", () => {
    for (const values of [[2.1, 6.2, 11.1], [-6.5, -4.4, -2.2], [-0.3, 0.1], [0, 0.5, 14.6], [], [null, 3]]) {
      const [low, high] = forestDomain(values);
      const known = values.filter((value): value is number => value !== null);
      // Zero at least half a point inside each edge, every interval inside.
      expect(low).toBeLessThanOrEqual(-0.5);
      expect(high).toBeGreaterThanOrEqual(0.5);
      for (const value of known) {
        expect(value).toBeGreaterThan(low);
        expect(value).toBeLessThan(high);
      }
    }
    // Intervals all right of zero (the axis used to start at 0 and hide the line): 8% of the span each side.
    expect(forestDomain([2, 12])).toEqual([-0.96, 12.96]);
  });
});
