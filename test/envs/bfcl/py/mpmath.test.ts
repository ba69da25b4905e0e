// The mpmath slice MathAPI.logarithm uses; expected strings printed by mpmath 1.3.0 under CPython 3.11.
import { describe, expect, it } from "vitest";
import { fromDouble } from "../../../../src/envs/bfcl/py/bigfloat.js";
import { PyException } from "../../../../src/envs/bfcl/py/errors.js";
import {
  dpsToPrec,
  mpConvert,
  mpDivide,
  mpLn,
  mpObject,
  mpToStr,
  precToDps,
  reprDigits,
  setDps,
} from "../../../../src/envs/bfcl/py/mpmath.js";
import { pyFloat, type PyValue } from "../../../../src/envs/bfcl/py/value.js";

/** repr(mpmath.log(value) / mpmath.log(base)) after mp.dps = dps. */
function logRepr(value: PyValue, base: PyValue, dps: PyValue): string {
  const prec = setDps(dps);
  return mpObject(mpDivide(mpLn(mpConvert(value, prec), prec), mpLn(mpConvert(base, prec), prec), prec), prec).pyRepr();
}

describe("mpmath emulation", () => {
  it("converts between digits and bits as mpmath does", () => {
    expect(dpsToPrec(15)).toBe(53);
    expect(dpsToPrec(2)).toBe(10);
    expect(dpsToPrec(-5)).toBe(1);
    expect(precToDps(53)).toBe(15);
    expect(reprDigits(53)).toBe(17);
    expect(reprDigits(10)).toBe(5);
  });

  it("prints with to_str: fixed near 1, exponents elsewhere, trailing zeros stripped", () => {
    expect(mpToStr(fromDouble(123456789), 5)).toBe("1.2346e+8");
    expect(mpToStr(fromDouble(123456789), 17)).toBe("123456789.0");
    expect(mpToStr(fromDouble(1e-7), 17)).toBe("9.9999999999999995e-8");
    expect(mpToStr(fromDouble(1e25), 17)).toBe("1.0000000000000001e+25");
    expect(mpToStr(fromDouble(-2.5e-9), 5)).toBe("-2.5e-9");
    expect(mpToStr(fromDouble(0.5), 5)).toBe("0.5");
  });

  it("computes log quotients at the working precision", () => {
    expect(logRepr(2, 10, 30)).toBe("mpf('0.301029995663981195213738894724506')");
    expect(logRepr(3, 7, 1)).toBe("mpf('0.5625')");
    expect(logRepr(pyFloat(1e-300), 7, 100)).toBe(
      "mpf('-354.9883987364814980325007427386526092114930212016376584744572126778831057283563644576342180379839869986')",
    );
    expect(logRepr(-8, 2, 6)).toBe("mpc(real='3.0', imag='4.53236008')");
    expect(logRepr(0, -3, 5)).toBe("mpc(real='-inf', imag='+inf')");
  });

  it("raises mpmath's and int()'s errors", () => {
    const text = (run: () => unknown): string => {
      try {
        run();
        return "no exception";
      } catch (error) {
        if (error instanceof PyException) return `${error.pyType}: ${error.text}`;
        throw error;
      }
    };
    expect(text(() => logRepr(10, 1, 5))).toBe("ZeroDivisionError: ");
    expect(text(() => mpConvert("abc", 53))).toBe("TypeError: cannot create mpf from 'abc'");
    expect(text(() => mpConvert([1], 53))).toBe("TypeError: cannot create mpf from [1]");
    expect(text(() => setDps("x"))).toBe("ValueError: invalid literal for int() with base 10: 'x'");
  });
});
