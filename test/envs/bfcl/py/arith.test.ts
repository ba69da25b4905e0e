// Expected values printed by CPython 3.11 for round() and mixed int/float arithmetic.
import { describe, expect, it } from "vitest";
import { pyAdd, pyRound, pyTrueDiv, roundFloat } from "../../../../src/envs/bfcl/py/arith.js";
import { pyRepr } from "../../../../src/envs/bfcl/py/format.js";
import { pyFloat } from "../../../../src/envs/bfcl/py/value.js";

describe("round", () => {
  it("rounds the exact binary value with ties to even", () => {
    const cases: [number, number, number][] = [
      [2.675, 2, 2.67],
      [0.125, 2, 0.12],
      [0.375, 2, 0.38],
      [2.5, 0, 2],
      [3.5, 0, 4],
      [-2.5, 0, -2],
      [-0.125, 2, -0.12],
      [1234.5678, -2, 1200],
      [1e-10, 3, 0],
      [0.1 + 0.2, 10, 0.3],
      [123.456, 1, 123.5],
      [1.005, 2, 1],
      [2.4999999999999996, 0, 2],
    ];
    for (const [x, digits, expected] of cases) expect(roundFloat(x, digits)).toBe(expected);
  });

  it("keeps Python's result types", () => {
    expect(pyRepr(pyRound(pyFloat(2.5)))).toBe("2");
    expect(pyRepr(pyRound(pyFloat(2.5), 0))).toBe("2.0");
    expect(pyRepr(pyRound(7, 2))).toBe("7");
    expect(pyRepr(pyAdd(1, pyFloat(2)))).toBe("3.0");
    expect(pyRepr(pyAdd(1, 2))).toBe("3");
    expect(pyRepr(pyTrueDiv(4, 2))).toBe("2.0");
    expect(() => pyTrueDiv(1, 0)).toThrow(/division by zero/);
  });
});
