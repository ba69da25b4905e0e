// x[k], x[k] = v, x.get(k, d) and x.copy() with CPython 3.11's error texts.
import { describe, expect, it } from "vitest";
import { pyDictGet, pyGetItem, pySetItem, pyShallowCopy } from "../../../../src/envs/bfcl/py/subscript.js";
import { pyFloat, pyTuple, type PyDict, type PyValue } from "../../../../src/envs/bfcl/py/value.js";
import { raised } from "./raised.js";

describe("pyGetItem", () => {
  it("indexes dicts by equal keys and sequences by int or bool, negative from the end", () => {
    const dict: PyDict = new Map([[1, "one"]]);
    expect(pyGetItem(dict, pyFloat(1))).toBe("one");
    expect(pyGetItem([1, 2], -1)).toBe(2);
    expect(pyGetItem("abc", true)).toBe("b");
    expect(pyGetItem(pyTuple([7]), 0)).toBe(7);
  });

  it("raises KeyError, IndexError and TypeError as CPython does", () => {
    expect(raised(() => pyGetItem(new Map(), "x"))).toBe("KeyError: 'x'");
    expect(raised(() => pyGetItem("abc", "x"))).toBe("TypeError: string indices must be integers, not 'str'");
    expect(raised(() => pyGetItem("abc", pyFloat(1)))).toBe("TypeError: string indices must be integers, not 'float'");
    expect(raised(() => pyGetItem("abc", 5))).toBe("IndexError: string index out of range");
    expect(raised(() => pyGetItem([1], 5))).toBe("IndexError: list index out of range");
    expect(raised(() => pyGetItem([1, 2], -3))).toBe("IndexError: list index out of range");
    expect(raised(() => pyGetItem([1], "a"))).toBe("TypeError: list indices must be integers or slices, not str");
    expect(raised(() => pyGetItem(pyTuple([1]), 3))).toBe("IndexError: tuple index out of range");
    expect(raised(() => pyGetItem(null, "a"))).toBe("TypeError: 'NoneType' object is not subscriptable");
    expect(raised(() => pyGetItem(true, "a"))).toBe("TypeError: 'bool' object is not subscriptable");
    expect(raised(() => pyGetItem(new Set([1]), "a"))).toBe("TypeError: 'set' object is not subscriptable");
  });
});

describe("pySetItem, pyDictGet, pyShallowCopy", () => {
  it("assigns to the existing equal key, or appends a new one", () => {
    const dict: PyDict = new Map([[1, "one"]]);
    pySetItem(dict, true, "uno");
    pySetItem(dict, "two", 2);
    expect([...dict]).toEqual([
      [1, "uno"],
      ["two", 2],
    ]);
    const list: PyValue[] = [1, 2];
    pySetItem(list, -1, 9);
    expect(list).toEqual([1, 9]);
  });

  it("raises as CPython does", () => {
    expect(raised(() => pySetItem("abc", "s", 1))).toBe("TypeError: 'str' object does not support item assignment");
    expect(raised(() => pySetItem(pyTuple([1]), 0, 1))).toBe(
      "TypeError: 'tuple' object does not support item assignment",
    );
    expect(raised(() => pySetItem([1], 5, 1))).toBe("IndexError: list assignment index out of range");
    expect(raised(() => pySetItem(new Map(), [1], 1))).toBe("TypeError: unhashable type: 'list'");
    expect(raised(() => pyDictGet("abc", "x", null))).toBe("AttributeError: 'str' object has no attribute 'get'");
    expect(raised(() => pyShallowCopy("s"))).toBe("AttributeError: 'str' object has no attribute 'copy'");
  });

  it("dict.get falls back, copy is shallow", () => {
    const inner: PyValue[] = [1];
    const dict: PyDict = new Map([["a", inner]]);
    expect(pyDictGet(dict, "b", 0)).toBe(0);
    const copy = pyShallowCopy(dict) as PyDict;
    copy.set("b", 2);
    expect(dict.has("b")).toBe(false);
    expect(copy.get("a")).toBe(inner);
  });
});
