// str methods on PyValues with CPython 3.11's errors.
import { describe, expect, it } from "vitest";
import { pyFormatNamed, pyJoin, pyLower, pyStartsWith, strReceiver } from "../../../../src/envs/bfcl/py/str-methods.js";
import { raised } from "./raised.js";

describe("str methods", () => {
  it("work on strings and raise AttributeError on anything else", () => {
    expect(pyLower("BuY")).toBe("buy");
    expect(pyStartsWith("US123", "US")).toBe(true);
    expect(strReceiver("x", "isdigit")).toBe("x");
    expect(raised(() => pyLower(1))).toBe("AttributeError: 'int' object has no attribute 'lower'");
    expect(raised(() => pyStartsWith([1], "US"))).toBe("AttributeError: 'list' object has no attribute 'startswith'");
  });

  it("join needs str items", () => {
    expect(pyJoin(", ", ["a", "b"])).toBe("a, b");
    expect(raised(() => pyJoin(", ", ["a", 1]))).toBe("TypeError: sequence item 1: expected str instance, int found");
  });

  it("format fills named fields, unescapes braces and raises KeyError/ValueError", () => {
    expect(pyFormatNamed("x{a}y{{z}}", new Map([["a", [1]]]))).toBe("x[1]y{z}");
    expect(pyFormatNamed("{a!r}", new Map([["a", "q"]]))).toBe("'q'");
    expect(raised(() => pyFormatNamed("a {b} c", new Map([["symbol", 1]])))).toBe("KeyError: 'b'");
    expect(raised(() => pyFormatNamed("{", new Map()))).toBe("ValueError: Single '{' encountered in format string");
    expect(raised(() => pyFormatNamed("}", new Map()))).toBe("ValueError: Single '}' encountered in format string");
  });
});
