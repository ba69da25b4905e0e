// Expected strings printed by CPython 3.11 (repr, str, json.dumps) for the same values.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { floatRepr, pyJsonDumps, pyRepr, resultString, stringRepr } from "../../../../src/envs/bfcl/py/format.js";
import { parsePyJson } from "../../../../src/envs/bfcl/py/json.js";
import { pyDict, pyFloat, pyTuple } from "../../../../src/envs/bfcl/py/value.js";

describe("floatRepr", () => {
  it("matches repr(float) in fixed and scientific ranges", () => {
    const cases: [number, string][] = [
      [1e16, "1e+16"],
      [1e15, "1000000000000000.0"],
      [1.2345678901234568e20, "1.2345678901234568e+20"],
      [0.0001, "0.0001"],
      [0.00001, "1e-05"],
      [1.5e-10, "1.5e-10"],
      [2.5, "2.5"],
      [100, "100.0"],
      [-0.5, "-0.5"],
      [1 / 3, "0.3333333333333333"],
      [5e-324, "5e-324"],
      [1.7976931348623157e308, "1.7976931348623157e+308"],
      [-0, "-0.0"],
      [Infinity, "inf"],
      [NaN, "nan"],
      [0.1 + 0.2, "0.30000000000000004"],
    ];
    for (const [x, text] of cases) expect(floatRepr(x)).toBe(text);
  });
});

/** repr(float) the long way: shortest digits from toExponential, laid out as Python does. */
function referenceFloatRepr(x: number): string {
  const [mantissa, exponentText] = x.toExponential().split("e") as [string, string];
  const exponent = Number(exponentText);
  const sign = mantissa.startsWith("-") ? "-" : "";
  const digits = mantissa.replace("-", "").replace(".", "");
  if (exponent < 0) return `${sign}0.${"0".repeat(-exponent - 1)}${digits}`;
  const whole = digits.slice(0, exponent + 1).padEnd(exponent + 1, "0");
  const fraction = digits.slice(exponent + 1);
  return `${sign}${whole}.${fraction === "" ? "0" : fraction}`;
}

describe("floatRepr fast path", () => {
  it("agrees with the digit-by-digit layout across the fixed-notation range", () => {
    fc.assert(
      fc.property(
        fc.double({ noNaN: true, noDefaultInfinity: true }),
        fc.integer({ min: -4, max: 15 }),
        (base, exponent) => {
          const x = (base % 10) * 10 ** exponent;
          if (!(Math.abs(x) >= 1e-4 && Math.abs(x) < 1e16)) return;
          expect(floatRepr(x)).toBe(referenceFloatRepr(x));
        },
      ),
      { numRuns: 5000, seed: 7 },
    );
  });
});

describe("repr and str", () => {
  it("quotes strings as CPython does", () => {
    expect(stringRepr("abc")).toBe("'abc'");
    expect(stringRepr("it's")).toBe(`"it's"`);
    expect(stringRepr(`q"'`)).toBe(`'q"\\''`);
    expect(stringRepr("a\nb\t\\")).toBe("'a\\nb\\t\\\\'");
    expect(stringRepr("\u0001é\u2028")).toBe("'\\x01é\\u2028'");
  });

  it("prints containers, tuples, sets and None/True/False", () => {
    const value = parsePyJson('{"a": [1, 2.0, "x\'y", "q\\"\'"], "b": {"c": null, "d": true}, "e": 1e5}');
    expect(pyRepr(value)).toBe(`{'a': [1, 2.0, "x'y", 'q"\\''], 'b': {'c': None, 'd': True}, 'e': 100000.0}`);
    expect(pyRepr(pyTuple([1]))).toBe("(1,)");
    expect(pyRepr(pyTuple([]))).toBe("()");
    expect(pyRepr(new Set())).toBe("set()");
    expect(pyRepr(new Set([1, "a"]))).toBe("{1, 'a'}");
    expect(pyRepr(pyDict([[1, false]]))).toBe("{1: False}");
  });
});

describe("ints beyond 2**53", () => {
  it("print all digits of the double, as str(int) would for that value", () => {
    expect(pyRepr(2 ** 60)).toBe("1152921504606846976");
    expect(pyRepr(1e21)).toBe("1000000000000000000000");
    expect(pyJsonDumps(pyDict([["n", 2 ** 100]]))).toBe('{"n": 1267650600228229401496703205376}');
  });
});

describe("json.dumps and result strings", () => {
  it("matches json.dumps defaults (separators, ensure_ascii, int keys)", () => {
    expect(pyJsonDumps(parsePyJson('{"a": [1, 2.0, "h\\u00e9llo\\n"], "b": {"c": null, "d": true}, "e": 1e5}'))).toBe(
      '{"a": [1, 2.0, "h\\u00e9llo\\n"], "b": {"c": null, "d": true}, "e": 100000.0}',
    );
    expect(pyJsonDumps(pyDict([[12, pyTuple([pyFloat(1), "\u{1F600}"])]]))).toBe('{"12": [1.0, "\\ud83d\\ude00"]}');
  });

  it("turns dicts into JSON, falls back to str() when json.dumps fails, and str()s the rest", () => {
    expect(resultString(pyDict([["result", pyFloat(3)]]))).toBe('{"result": 3.0}');
    expect(resultString(pyDict([["ids", new Set([3])]]))).toBe("{'ids': {3}}");
    expect(resultString(null)).toBe("None");
    expect(resultString([1, "a"])).toBe("[1, 'a']");
    expect(resultString("plain")).toBe("plain");
    expect(resultString(true)).toBe("True");
  });
});
