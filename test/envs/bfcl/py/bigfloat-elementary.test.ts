// Correctly rounded ln, pi and pow on BigFloats; reference values from mpmath at high precision / CPython.
import { describe, expect, it } from "vitest";
import { fromDouble, toDouble, type BigFloat } from "../../../../src/envs/bfcl/py/bigfloat.js";
import { lnRounded, piRounded, powPositive } from "../../../../src/envs/bfcl/py/bigfloat-elementary.js";

const asDouble = (value: BigFloat): number => (value.kind === "finite" ? toDouble(value.man, value.exp) : NaN);

function ln(x: number, prec = 53): number {
  const exact = fromDouble(x);
  if (exact.kind !== "finite") throw new Error("finite input expected");
  const result = lnRounded(exact.man, exact.exp, prec);
  return result.kind === "zero" ? 0 : asDouble(result);
}

describe("elementary functions", () => {
  it("ln is correctly rounded (equal to the double nearest the true value)", () => {
    expect(ln(2)).toBe(0.6931471805599453);
    expect(ln(10)).toBe(2.302585092994046);
    expect(ln(1 + 2 ** -52)).toBe(2 ** -52 - 2 ** -105); // ln(1+e) = e - e^2/2 + ..., just below 2^-52
    expect(ln(0.5)).toBe(-0.6931471805599453);
    expect(ln(5e-324)).toBe(-744.4400719213812);
    expect(ln(1)).toBe(0);
  });

  it("pi at any precision", () => {
    expect(asDouble(piRounded(53))).toBe(Math.PI);
    const pi10 = piRounded(10);
    expect(pi10.kind === "finite" && [pi10.man, pi10.exp]).toEqual([201n, -6]); // 3.140625
  });

  it("pow matches CPython (glibc) on these inputs and resolves exact cases exactly", () => {
    expect(powPositive(2.5, 0.3)).toBe(1.3163822043342375);
    expect(powPositive(10, 0.5)).toBe(3.1622776601683795);
    expect(powPositive(16, 0.25)).toBe(2);
    expect(powPositive(7, -3.5)).toBe(0.001101937239093957);
    expect(powPositive(1e300, 2)).toBe(Infinity);
    expect(powPositive(1e-300, 2)).toBe(0);
    expect(powPositive(2, -1074)).toBe(5e-324);
  });
});
