// How a difference reads against the margin: higher and lower need the interval off zero and the value past the
// margin; negligible needs the whole interval inside it; non-inferiority reads the low end against -margin.
import { describe, expect, it } from "vitest";
import { detectableEffect, nonInferiority, outcomeOf } from "../../src/report/effect-outcome.js";

const at = (value: number, low: number, high: number) => ({ value, low, high });

describe("outcomeOf", () => {
  it("reads each case of the header", () => {
    expect(outcomeOf(at(0.05, 0.03, 0.07), 0.03)).toBe("higher");
    expect(outcomeOf(at(0.02, 0.01, 0.03), 0.03)).toBe("negligible");
    expect(outcomeOf(at(0.025, 0.01, 0.04), 0.03)).toBe("unclear");
    expect(outcomeOf(at(-0.05, -0.08, -0.02), 0.03)).toBe("lower");
    expect(outcomeOf(at(0, -0.05, 0.05), 0.03)).toBe("unclear");
    expect(outcomeOf(at(0, 0, 0), 0.03)).toBe("negligible");
    expect(outcomeOf({ value: null, low: null, high: null }, 0.03)).toBe("no data");
    expect(outcomeOf({ value: 0.1, low: null, high: null }, 0.03)).toBe("unclear");
  });

  it("with no margin, any interval off zero is a direction", () => {
    expect(outcomeOf(at(0.005, 0.001, 0.011), 0)).toBe("higher");
  });
});

describe("nonInferiority", () => {
  it("keeps a loss whose interval stays above -margin, refutes one wholly below it", () => {
    expect(nonInferiority(at(-0.02, -0.025, -0.015), 0.03)).toBe("non-inferior");
    expect(nonInferiority(at(-0.05, -0.06, -0.04), 0.03)).toBe("inferior");
    expect(nonInferiority(at(-0.03, -0.04, -0.02), 0.03)).toBe("unclear");
  });
});

describe("detectableEffect", () => {
  it("is 2.8 standard errors, from the interval's width", () => {
    expect(detectableEffect(at(0, -0.0392, 0.0392))).toBeCloseTo(0.056, 3);
    expect(detectableEffect({ value: 0, low: null, high: null })).toBeNull();
  });
});
