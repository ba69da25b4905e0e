// Numbers as constrained decoding writes them: the fewest bytes to a number within the bounds, checked against a
// brute-force search over the texts themselves; prefixes that cannot finish are refused; exponents are bounded.
import { describe, expect, it } from "vitest";
import { boundOf, fewestMore, numberStep, type NumberShape } from "../../src/serve/number-text.js";

function integers(low: number, high: number, multipleOf?: number): NumberShape {
  return {
    kind: "number",
    integer: true,
    range: {
      low: boundOf(low, false),
      high: boundOf(high, false),
      ...(multipleOf === undefined ? {} : { multipleOf: BigInt(multipleOf) }),
    },
  };
}

/** The shortest text of an integer in [low, high] (a multiple of m) with the prefix, by trying them all. */
function bruteShortest(prefix: string, low: number, high: number, m = 1): number {
  let best = Infinity;
  for (let n = low; n <= high; n++)
    if (n % m === 0 && String(n).startsWith(prefix)) best = Math.min(best, String(n).length);
  return best === Infinity ? Infinity : best - prefix.length;
}

describe("number text", () => {
  it("knows the fewest bytes to an integer within the bounds, for every prefix", () => {
    for (const [low, high, m] of [
      [-120, 45, 1],
      [7, 7, 1],
      [-999, -100, 7],
      [13, 2000, 13],
      [0, 0, 1],
    ] as const) {
      const shape = integers(low, high, m);
      for (const prefix of ["", "-", "-1", "1", "12", "0", "-0", "9", "45", "7"])
        expect(fewestMore(shape, prefix), `${prefix} in [${low}, ${high}] step ${m}`).toBe(
          bruteShortest(prefix, low, high, m),
        );
    }
  });

  it("writes bounded decimals exactly against the bound's shortest decimal", () => {
    const share: NumberShape = {
      kind: "number",
      integer: false,
      range: { low: boundOf(0, true), high: boundOf(0.1, true) },
    };
    expect(fewestMore(share, "")).toBe(4); // 0 and 0.1 are excluded: 0.01 .. 0.09
    expect(fewestMore(share, "0.1")).toBe(Infinity);
    expect(fewestMore(share, "0.0")).toBe(1);
    expect(fewestMore(share, "0.09")).toBe(0);
    expect(numberStep(share, "0.", 0x31)).toBeUndefined();
  });

  it("keeps unbounded numbers finite: at most 16 integer digits and a two-digit exponent", () => {
    const any: NumberShape = { kind: "number", integer: false };
    expect(numberStep(any, "1e99", 0x39)).toBeUndefined();
    expect(numberStep(any, "1234567890123456", 0x37)).toBeUndefined();
    expect(numberStep(any, "12.5e-", 0x39)).toBe("12.5e-9");
    expect(Number.isFinite(Number("9999999999999999.9e99"))).toBe(true);
  });
});
