// Python's ** on PyValues; expected strings printed by CPython 3.11 (x ** y, repr of the result).
import { describe, expect, it } from "vitest";
import { PyException } from "../../../../src/envs/bfcl/py/errors.js";
import { pyRepr } from "../../../../src/envs/bfcl/py/format.js";
import { pyPower } from "../../../../src/envs/bfcl/py/power.js";
import { pyFloat, type PyValue } from "../../../../src/envs/bfcl/py/value.js";

function power(a: PyValue, b: PyValue): string {
  try {
    return pyRepr(pyPower(a, b));
  } catch (error) {
    if (error instanceof PyException) return `${error.pyType}: ${error.text}`;
    throw error;
  }
}

describe("pyPower", () => {
  it("keeps int ** non-negative int an int and prints it exactly (also above 2**53 when the double is exact)", () => {
    expect(power(2, 10)).toBe("1024");
    expect(power(2, 100)).toBe("1267650600228229401496703205376");
    expect(power(true, 3)).toBe("1");
    expect(power(-3, 3)).toBe("-27");
  });

  it("follows float_pow: negative int exponents, fractional exponents, special values", () => {
    expect(power(2, -2)).toBe("0.25");
    expect(power(2, pyFloat(0.5))).toBe("1.4142135623730951");
    expect(power(pyFloat(-2), 3)).toBe("-8.0");
    expect(power(pyFloat(Infinity), -1)).toBe("0.0");
    expect(power(pyFloat(-Infinity), 3)).toBe("-inf");
    expect(power(pyFloat(1), pyFloat(NaN))).toBe("1.0");
    expect(power(pyFloat(NaN), 0)).toBe("1.0");
  });

  it("is correctly rounded where glibc is (these agree with CPython)", () => {
    expect(power(pyFloat(2.5), pyFloat(0.3))).toBe("1.3163822043342375");
    expect(power(pyFloat(1.5), pyFloat(200.5))).toBe("2.0244051835589006e+35");
    expect(power(7, pyFloat(-3.5))).toBe("0.001101937239093957");
    expect(power(pyFloat(0.9999995), pyFloat(5e8))).toBe("2.6690234512032773e-109");
  });

  it("gives complex results for a negative base and a fractional exponent", () => {
    expect(power(-8, pyFloat(1 / 3))).toBe("(1.0000000000000002+1.7320508075688772j)");
    expect(power(pyFloat(-8), pyFloat(0.5))).toBe("(1.7319121124709868e-16+2.8284271247461903j)");
  });

  it("raises as CPython does", () => {
    expect(power(0, -1)).toBe("ZeroDivisionError: 0.0 cannot be raised to a negative power");
    expect(power(pyFloat(10), 400)).toBe("OverflowError: (34, 'Numerical result out of range')");
    expect(power("a", 2)).toBe("TypeError: unsupported operand type(s) for ** or pow(): 'str' and 'int'");
    expect(power(10, 5000)).toBe(
      "ValueError: Exceeds the limit (4300 digits) for integer string conversion; use sys.set_int_max_str_digits() to increase the limit",
    );
  });

  it("documents where we differ: ints beyond 1e308, and exact ties glibc rounds its own way", () => {
    // CPython prints all 338 digits of 7 ** 400; our ints are doubles.
    expect(power(7, 400)).toBe("OverflowError: int result beyond 1e308: budgetrl keeps ints in doubles");
    // 10.0 ** 23 is exactly halfway between two doubles: we round to even (1e+23), glibc gives 1.0000000000000001e+23.
    expect(power(pyFloat(10), 23)).toBe("1e+23");
  });
});
