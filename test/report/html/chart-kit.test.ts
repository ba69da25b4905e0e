// The shared chart specs: what a reader sees of them that a spec change could silently break.
import { describe, expect, it } from "vitest";
import { bandedLines, modelColor } from "../../../src/report/html/chart-kit.js";

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
