// The decimal slice MathAPI.square_root uses; expected strings printed by CPython 3.11's decimal module.
import { describe, expect, it } from "vitest";
import {
  decimalPrecision,
  decimalSqrt,
  decimalToString,
  toDecimal,
  type DecimalValue,
} from "../../../../src/envs/bfcl/py/decimal.js";
import { PyException } from "../../../../src/envs/bfcl/py/errors.js";
import { pyFloat, type PyValue } from "../../../../src/envs/bfcl/py/value.js";

const finite = (coefficient: bigint, exponent: number, negative = false): DecimalValue => ({
  kind: "finite",
  negative,
  coefficient,
  exponent,
});
const sqrt = (value: PyValue, prec: number): string => decimalToString(decimalSqrt(toDecimal(value), prec));

describe("decimal emulation", () => {
  it("prints to-scientific-string as str(Decimal) does", () => {
    expect(decimalToString(finite(1n, -6))).toBe("0.000001");
    expect(decimalToString(finite(1n, -7))).toBe("1E-7");
    expect(decimalToString(finite(123n, 2))).toBe("1.23E+4");
    expect(decimalToString(finite(0n, 0, true))).toBe("-0");
    expect(decimalToString(finite(12300n, -4))).toBe("1.2300");
    expect(decimalToString(finite(0n, -10))).toBe("0E-10");
  });

  it("converts floats exactly", () => {
    expect(decimalToString(toDecimal(pyFloat(0.1)))).toBe("0.1000000000000000055511151231257827021181583404541015625");
    expect(decimalToString(toDecimal(pyFloat(16)))).toBe("16");
  });

  it("takes correctly rounded square roots with the ideal exponent for exact ones", () => {
    expect(sqrt(2, 5)).toBe("1.4142");
    expect(sqrt(pyFloat(0.25), 5)).toBe("0.5");
    expect(sqrt(121, 1)).toBe("1E+1");
    expect(sqrt(pyFloat(1e-300), 5)).toBe("1.0000E-150");
    expect(sqrt(pyFloat(5e-324), 5)).toBe("2.2228E-162");
    expect(sqrt(123456789, 5)).toBe("11111");
    expect(sqrt(pyFloat(-0), 3)).toBe("-0");
    expect(sqrt(pyFloat(Infinity), 3)).toBe("Infinity");
  });

  it("validates the context precision as CPython does", () => {
    const text = (value: PyValue): string => {
      try {
        return String(decimalPrecision(value));
      } catch (error) {
        if (error instanceof PyException) return `${error.pyType}: ${error.text}`;
        throw error;
      }
    };
    expect(text(true)).toBe("1");
    expect(text(0)).toBe("ValueError: valid range for prec is [1, MAX_PREC]");
    expect(text(pyFloat(2.5))).toBe("TypeError: an integer is required");
  });
});
