// repr(complex) as CPython 3.11 prints it, and complex results of negative ** fractional.
import { describe, expect, it } from "vitest";
import { complexPower, pyComplex } from "../../../../src/envs/bfcl/py/complex.js";
import { resultString } from "../../../../src/envs/bfcl/py/format.js";
import { pyDictOf, pyEquals } from "../../../../src/envs/bfcl/py/value.js";

describe("complex", () => {
  it("prints like repr(complex)", () => {
    expect(pyComplex(0, 2).pyRepr()).toBe("2j");
    expect(pyComplex(-0, 2).pyRepr()).toBe("(-0+2j)");
    expect(pyComplex(0, -0).pyRepr()).toBe("-0j");
    expect(pyComplex(1, 0).pyRepr()).toBe("(1+0j)");
    expect(pyComplex(1e20, -1).pyRepr()).toBe("(1e+20-1j)");
    expect(pyComplex(1.5, NaN).pyRepr()).toBe("(1.5+nanj)");
    expect(pyComplex(Infinity, Infinity).pyRepr()).toBe("(inf+infj)");
  });

  it("is not JSON serialisable, so a result dict prints through str()", () => {
    expect(resultString(pyDictOf({ result: complexPower(-8, 1 / 3) }))).toBe(
      "{'result': (1.0000000000000002+1.7320508075688772j)}",
    );
  });

  it("equals a real number when the imaginary part is zero, and another complex with the same parts", () => {
    expect(pyComplex(2, 0).pyEquals(2)).toBe(true);
    expect(pyComplex(2, 1).pyEquals(2)).toBe(false);
    expect(pyEquals(pyComplex(2, 1), pyComplex(2, 1))).toBe(true);
  });
});
