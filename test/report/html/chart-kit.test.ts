// The chart specs: what a reader sees of them that a spec change could silently break (legend swatches,
// colours kept across charts, the smoothing of the training curves).
import { describe, expect, it } from "vitest";
import type { JsonObject } from "../../../src/core/json.js";
import { bandedLines, modelColor } from "../../../src/report/html/chart-kit.js";
import { trailingMeans } from "../../../src/report/html/charts.js";

describe("bandedLines", () => {
  it("draws the interval band with a pale fill but no mark opacity, which the shared legend would take for its swatches", () => {
    const rows = [{ model: "base", budget: "25%", value: 0.2, low: 0.1, high: 0.3 }];
    const spec = bandedLines(rows, { x: { field: "budget", type: "ordinal" }, y: "success", color: modelColor(["base"]) });
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
