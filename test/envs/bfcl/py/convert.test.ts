// Expected values and error texts printed by CPython 3.11 for float(...) and int(...).
import { describe, expect, it } from "vitest";
import { pyFloatOf, pyIntOf } from "../../../../src/envs/bfcl/py/convert.js";
import { pyRepr } from "../../../../src/envs/bfcl/py/format.js";
import { pyFloat, type PyValue } from "../../../../src/envs/bfcl/py/value.js";
import { raised } from "./raised.js";

describe("pyFloatOf", () => {
  it("parses strings with Python's grammar", () => {
    const cases: [string, string][] = [
      ["  -1_000.5e1 ", "-10005.0"],
      ["+inf", "inf"],
      ["Infinity", "inf"],
      ["-nan", "nan"],
      [".5", "0.5"],
      ["5.", "5.0"],
      ["\u0663.\u0665", "3.5"],
      ["\u2003 7 \u2003", "7.0"],
      ["1e400", "inf"],
    ];
    for (const [text, repr] of cases) expect(pyRepr(pyFloatOf(text)), text).toBe(repr);
  });

  it("converts numbers and bools", () => {
    expect(pyRepr(pyFloatOf(3))).toBe("3.0");
    expect(pyRepr(pyFloatOf(true))).toBe("1.0");
    expect(pyRepr(pyFloatOf(pyFloat(2.5)))).toBe("2.5");
  });

  it("raises ValueError and TypeError as CPython words them", () => {
    for (const text of ["1e", "_1", "1_", "1__0", "", "abc", "\ufeff1"]) {
      expect(raised(() => pyFloatOf(text))).toBe(`ValueError: could not convert string to float: ${pyRepr(text)}`);
    }
    const others: [PyValue, string][] = [
      [[1], "list"],
      [null, "NoneType"],
      [new Map(), "dict"],
    ];
    for (const [value, name] of others) {
      expect(raised(() => pyFloatOf(value))).toBe(
        `TypeError: float() argument must be a string or a real number, not '${name}'`,
      );
    }
  });
});

describe("pyIntOf", () => {
  it("truncates floats and parses base-10 strings", () => {
    expect(pyIntOf(" 42 ")).toBe(42);
    expect(pyIntOf("1_000")).toBe(1000);
    expect(pyIntOf("\u0663\u0660")).toBe(30);
    expect(pyIntOf(pyFloat(-2.7))).toBe(-2);
    expect(pyIntOf(true)).toBe(1);
  });

  it("raises as CPython does", () => {
    expect(raised(() => pyIntOf("4.0"))).toBe("ValueError: invalid literal for int() with base 10: '4.0'");
    expect(raised(() => pyIntOf("\u00b2"))).toBe("ValueError: invalid literal for int() with base 10: '\u00b2'");
    expect(raised(() => pyIntOf(pyFloat(NaN)))).toBe("ValueError: cannot convert float NaN to integer");
    expect(raised(() => pyIntOf(pyFloat(Infinity)))).toBe("OverflowError: cannot convert float infinity to integer");
    expect(raised(() => pyIntOf([1]))).toBe(
      "TypeError: int() argument must be a string, a bytes-like object or a real number, not 'list'",
    );
  });
});
