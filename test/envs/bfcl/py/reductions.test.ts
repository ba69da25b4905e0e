// sum(), min(), max() and sorted() of str lists; expected values printed by CPython 3.11.
import { describe, expect, it } from "vitest";
import { raised } from "./raised.js";
import { pyRepr } from "../../../../src/envs/bfcl/py/format.js";
import { pyMax, pyMin, pySum, sortedStrings } from "../../../../src/envs/bfcl/py/reductions.js";
import { pyFloat, type PyValue } from "../../../../src/envs/bfcl/py/value.js";

describe("reductions", () => {
  it("sum adds left to right from 0 (CPython 3.11), keeping int/float apart", () => {
    expect(pyRepr(pySum(Array<PyValue>(10).fill(pyFloat(0.1))))).toBe("0.9999999999999999");
    expect(pyRepr(pySum([1, 2, true]))).toBe("4");
    expect(pyRepr(pySum([1, pyFloat(2)]))).toBe("3.0");
    expect(raised(() => pySum(["a"]))).toBe("TypeError: unsupported operand type(s) for +: 'int' and 'str'");
    expect(raised(() => pySum(5))).toBe("TypeError: 'int' object is not iterable");
  });

  it("min and max return the first extreme item and raise on unordered types or empty input", () => {
    expect(pyRepr(pyMax([3, 1, pyFloat(3)]))).toBe("3");
    expect(pyRepr(pyMin("hello"))).toBe("'e'");
    expect(pyRepr(pyMax([[1], [2]]))).toBe("[2]");
    expect(raised(() => pyMin([1, "a"]))).toBe("TypeError: '<' not supported between instances of 'str' and 'int'");
    expect(raised(() => pyMin([]))).toBe("ValueError: min() arg is an empty sequence");
  });

  it("sorted() orders str by code point", () => {
    expect(sortedStrings(["b", "😀", "\uffff", "B"])).toEqual(["B", "b", "\uffff", "😀"]);
  });
});
