// Expected strings printed by CPython 3.11 for format(x, '.Nf').
import { describe, expect, it } from "vitest";
import { PyException } from "../../../../src/envs/bfcl/py/errors.js";
import { fixedText, formatFixed } from "../../../../src/envs/bfcl/py/format-spec.js";
import { pyFloat } from "../../../../src/envs/bfcl/py/value.js";

describe("formatFixed", () => {
  it("rounds the exact binary value half to even, unlike toFixed", () => {
    const cases: [number, number, string][] = [
      [2.675, 2, "2.67"],
      [0.125, 2, "0.12"],
      [1.005, 2, "1.00"],
      [2.5, 0, "2"],
      [-1.5, 0, "-2"],
      [12345.678, 1, "12345.7"],
      [-0, 2, "-0.00"],
      [Infinity, 2, "inf"],
      [NaN, 2, "nan"],
      [1e22, 2, "10000000000000000000000.00"],
      [
        1e100,
        2,
        "10000000000000000159028911097599180468360808563945281389781327557747838772170381060813469985856815104.00",
      ],
    ];
    for (const [x, digits, text] of cases) expect(fixedText(x, digits), String(x)).toBe(text);
  });

  it("formats ints and bools as floats and rejects other types", () => {
    expect(formatFixed(5, 2)).toBe("5.00");
    expect(formatFixed(true, 2)).toBe("1.00");
    expect(formatFixed(pyFloat(10000.625), 2)).toBe("10000.62");
    expect(() => formatFixed("a", 2)).toThrow(PyException);
    try {
      formatFixed("a", 2);
    } catch (error) {
      expect((error as PyException).text).toBe("Unknown format code 'f' for object of type 'str'");
    }
  });
});
