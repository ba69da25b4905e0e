// Exact binary floats on BigInt: canonical form, round-half-even with a sticky bit, doubles with subnormals.
import { describe, expect, it } from "vitest";
import {
  fromDouble,
  makeFinite,
  roundQuotient,
  roundToBits,
  toDouble,
  type BigFloat,
} from "../../../../src/envs/bfcl/py/bigfloat.js";

const finite = (value: BigFloat): [bigint, number] => {
  if (value.kind !== "finite") throw new Error(`expected finite, got ${value.kind}`);
  return [value.man, value.exp];
};

describe("BigFloat", () => {
  it("normalises to an odd mantissa and reads doubles exactly (subnormals included)", () => {
    expect(finite(makeFinite(12n, 0))).toEqual([3n, 2]);
    expect(finite(fromDouble(0.75))).toEqual([3n, -2]);
    expect(finite(fromDouble(-5e-324))).toEqual([-1n, -1074]);
    expect(fromDouble(0).kind).toBe("zero");
    expect(fromDouble(NaN).kind).toBe("nan");
  });

  it("rounds half to even, and a sticky bit breaks the tie upward", () => {
    expect(finite(roundToBits(0b1011n, 0, 3))).toEqual([3n, 2]); // 11 -> 12 (tie, 101 odd -> 110)
    expect(finite(roundToBits(0b1001n, 0, 3))).toEqual([1n, 3]); // 9 -> 8 (tie, 100 even)
    expect(finite(roundToBits(0b1001n, 0, 3, true))).toEqual([5n, 1]); // 9.x -> 10
  });

  it("rounds quotients correctly", () => {
    expect(finite(roundQuotient(1n, 3n, 0, 10))).toEqual([683n, -11]); // 1/3 ~ 683/2048
    expect(toDouble(...finite(roundQuotient(1n, 10n, 0, 53)))).toBe(0.1);
  });

  it("converts to doubles with ties to even, subnormal precision and overflow", () => {
    expect(toDouble((1n << 53n) + 1n, 0)).toBe(2 ** 53);
    expect(toDouble((1n << 53n) + 3n, 0)).toBe(2 ** 53 + 4);
    expect(toDouble(1n, -1075)).toBe(0);
    expect(toDouble(3n, -1076)).toBe(5e-324);
    expect(toDouble(1n, -1075, true)).toBe(5e-324);
    expect(toDouble(1n, 1024)).toBe(Infinity);
    expect(toDouble(-3n, -1)).toBe(-1.5);
  });
});
