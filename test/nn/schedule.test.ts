// Warm-up + cosine learning-rate schedule.
import { describe, expect, it } from "vitest";
import { ConfigError } from "../../src/core/errors.js";
import { warmupCosine } from "../../src/nn/schedule.js";

describe("warmupCosine", () => {
  it("warms up linearly, peaks, decays by a cosine to the floor and stays there", () => {
    const lr = warmupCosine({ peak: 1, warmupSteps: 4, totalSteps: 14, minRatio: 0.1 });
    expect([0, 1, 2, 3].map(lr)).toEqual([0.25, 0.5, 0.75, 1]);
    expect(lr(4)).toBeCloseTo(1, 12);
    expect(lr(9)).toBeCloseTo(0.55, 12);
    expect(lr(14)).toBeCloseTo(0.1, 12);
    expect(lr(100)).toBeCloseTo(0.1, 12);
  });

  it("rejects bad settings before use", () => {
    expect(() => warmupCosine({ peak: 1, warmupSteps: 5, totalSteps: 3, minRatio: 0 })).toThrow(ConfigError);
    expect(() => warmupCosine({ peak: 1, warmupSteps: 0, totalSteps: 3, minRatio: 2 })).toThrow(/minRatio/);
  });
});
