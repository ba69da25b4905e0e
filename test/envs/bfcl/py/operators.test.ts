// Expected values and error texts printed by CPython 3.11 for the same expressions.
import { describe, expect, it } from "vitest";
import { pyRepr } from "../../../../src/envs/bfcl/py/format.js";
import { pyAbs, pyBinary, pyCompare } from "../../../../src/envs/bfcl/py/operators.js";
import { pyFloat, pyTuple, type PyValue } from "../../../../src/envs/bfcl/py/value.js";
import { raised } from "./raised.js";

const f = pyFloat;

describe("pyBinary", () => {
  it("keeps Python's result types (int op int is an int except /, bool counts as int)", () => {
    const cases: [ReturnType<typeof pyBinary>, string][] = [
      [pyBinary("+", true, true), "2"],
      [pyBinary("*", true, f(2.5)), "2.5"],
      [pyBinary("/", 1, 2), "0.5"],
      [pyBinary("/", 4, 2), "2.0"],
      [pyBinary("-", f(2.5), 1), "1.5"],
      [pyBinary("%", 7, -3), "-2"],
      [pyBinary("%", f(-7.5), 2), "0.5"],
      [pyBinary("%", f(7.5), -2), "-0.5"],
      [pyBinary("%", f(-0), 5), "0.0"],
      [pyBinary("%", f(0), -5), "-0.0"],
      [pyBinary("%", 5, f(5)), "0.0"],
    ];
    for (const [value, text] of cases) expect(pyRepr(value)).toBe(text);
  });

  it("concatenates and repeats sequences without mutating them", () => {
    const list: PyValue[] = [1];
    expect(pyRepr(pyBinary("*", "ab", 3))).toBe("'ababab'");
    expect(pyRepr(pyBinary("*", 3, list))).toBe("[1, 1, 1]");
    expect(pyRepr(pyBinary("*", list, -1))).toBe("[]");
    expect(pyRepr(pyBinary("*", pyTuple([1]), 2))).toBe("(1, 1)");
    expect(pyRepr(pyBinary("*", "a", true))).toBe("'a'");
    expect(pyRepr(pyBinary("+", list, [2]))).toBe("[1, 2]");
    expect(pyRepr(pyBinary("+", pyTuple([1]), pyTuple([2])))).toBe("(1, 2)");
    expect(pyRepr(pyBinary("+", list, "ab", true))).toBe("[1, 'a', 'b']");
    expect(list).toEqual([1]);
  });

  it("raises CPython's TypeErrors and ZeroDivisionErrors", () => {
    expect(raised(() => pyBinary("*", null, "ab"))).toBe(
      "TypeError: can't multiply sequence by non-int of type 'NoneType'",
    );
    expect(raised(() => pyBinary("*", [1], f(2)))).toBe(
      "TypeError: can't multiply sequence by non-int of type 'float'",
    );
    expect(raised(() => pyBinary("*", f(2), "ab"))).toBe(
      "TypeError: can't multiply sequence by non-int of type 'float'",
    );
    expect(raised(() => pyBinary("*", new Map(), 2))).toBe(
      "TypeError: unsupported operand type(s) for *: 'dict' and 'int'",
    );
    expect(raised(() => pyBinary("+", "a", 1))).toBe('TypeError: can only concatenate str (not "int") to str');
    expect(raised(() => pyBinary("+", 1, "a"))).toBe("TypeError: unsupported operand type(s) for +: 'int' and 'str'");
    expect(raised(() => pyBinary("+", [1], "a"))).toBe('TypeError: can only concatenate list (not "str") to list');
    expect(raised(() => pyBinary("+", pyTuple([1]), [1]))).toBe(
      'TypeError: can only concatenate tuple (not "list") to tuple',
    );
    expect(raised(() => pyBinary("-", null, 1))).toBe(
      "TypeError: unsupported operand type(s) for -: 'NoneType' and 'int'",
    );
    expect(raised(() => pyBinary("-", f(1), "a", true))).toBe(
      "TypeError: unsupported operand type(s) for -=: 'float' and 'str'",
    );
    expect(raised(() => pyBinary("/", 1, 0))).toBe("ZeroDivisionError: division by zero");
    expect(raised(() => pyBinary("/", f(1), 0))).toBe("ZeroDivisionError: float division by zero");
    expect(raised(() => pyBinary("%", 1, 0))).toBe("ZeroDivisionError: integer modulo by zero");
    expect(raised(() => pyBinary("%", f(1), 0))).toBe("ZeroDivisionError: float modulo");
  });

  it("refuses repetitions that would exhaust memory", () => {
    expect(raised(() => pyBinary("*", "ab", 1e9))).toBe("MemoryError: ");
  });
});

describe("pyAbs and pyCompare", () => {
  it("abs keeps the type and rejects non-numbers", () => {
    expect(pyRepr(pyAbs(-2))).toBe("2");
    expect(pyRepr(pyAbs(f(-2.5)))).toBe("2.5");
    expect(pyRepr(pyAbs(true))).toBe("1");
    expect(raised(() => pyAbs("a"))).toBe("TypeError: bad operand type for abs(): 'str'");
  });

  it("orders numbers, strings, sequences and sets as Python does", () => {
    expect(pyCompare(">", "b", "a")).toBe(true);
    expect(pyCompare("<", "a", "ab")).toBe(true);
    expect(pyCompare("<", "\uffff", "\u{10000}")).toBe(true); // code points, not UTF-16 units
    expect(pyCompare("<", [1, 2], [1, 3])).toBe(true);
    expect(pyCompare("<=", [1, 2], [1])).toBe(false);
    expect(pyCompare("<", pyTuple([1, "a"]), pyTuple([1, "b"]))).toBe(true);
    expect(pyCompare("<", new Set([1]), new Set([1, 2]))).toBe(true);
    expect(pyCompare(">=", new Set([1, 2]), new Set([2]))).toBe(true);
    expect(pyCompare("<", true, 2)).toBe(true);
    expect(pyCompare("<", 1, f(1.5))).toBe(true);
    expect(pyCompare("<", f(NaN), 1)).toBe(false);
  });

  it("raises CPython's TypeError for types that do not order", () => {
    expect(raised(() => pyCompare("<", "a", 1))).toBe(
      "TypeError: '<' not supported between instances of 'str' and 'int'",
    );
    expect(raised(() => pyCompare("<=", 1, "a"))).toBe(
      "TypeError: '<=' not supported between instances of 'int' and 'str'",
    );
    expect(raised(() => pyCompare("<", [1], pyTuple([1])))).toBe(
      "TypeError: '<' not supported between instances of 'list' and 'tuple'",
    );
    expect(raised(() => pyCompare("<", new Map(), new Map()))).toBe(
      "TypeError: '<' not supported between instances of 'dict' and 'dict'",
    );
    expect(raised(() => pyCompare(">=", null, 1))).toBe(
      "TypeError: '>=' not supported between instances of 'NoneType' and 'int'",
    );
  });
});
