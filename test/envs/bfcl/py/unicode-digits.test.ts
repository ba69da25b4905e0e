// Character classes as CPython 3.11's str.isdecimal/isdigit/isspace see them.
import { describe, expect, it } from "vitest";
import { decimalValue, isPyDigit, isPySpace } from "../../../../src/envs/bfcl/py/unicode-digits.js";

describe("unicode digits", () => {
  it("gives decimal values of any script", () => {
    expect(decimalValue("7")).toBe(7);
    expect(decimalValue("\u0663")).toBe(3); // ARABIC-INDIC DIGIT THREE
    expect(decimalValue("\u{1D7D9}")).toBe(1); // MATHEMATICAL DOUBLE-STRUCK DIGIT ONE (runs of ten back to back)
    expect(decimalValue("\u00b2")).toBeUndefined();
    expect(decimalValue("a")).toBeUndefined();
  });

  it("isdigit includes superscripts; isspace matches str.isspace", () => {
    expect(isPyDigit("\u00b2")).toBe(true);
    expect(isPyDigit("\u2460")).toBe(true);
    expect(isPyDigit("x")).toBe(false);
    expect(isPySpace("\u2003")).toBe(true);
    expect(isPySpace("\u001c")).toBe(true);
    expect(isPySpace("\ufeff")).toBe(false);
  });
});
