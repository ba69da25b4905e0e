// len(), list.remove(), method receivers and dict look-ups; errors as CPython 3.11 words them.
import { describe, expect, it } from "vitest";
import { raised } from "./raised.js";
import {
  dictLookup,
  pyLen,
  pyListRemove,
  requireDict,
  requireList,
  setDictItem,
} from "../../../../src/envs/bfcl/py/container-methods.js";
import { pyRepr } from "../../../../src/envs/bfcl/py/format.js";
import { pyDict, pyFloat, pyTuple, type PyValue } from "../../../../src/envs/bfcl/py/value.js";

describe("container methods", () => {
  it("len() counts code points and items; non-sized values raise TypeError", () => {
    expect(pyLen("😀é")).toBe(2);
    expect(pyLen(pyTuple([1, 2]))).toBe(2);
    expect(pyLen(pyDict([["a", 1]]))).toBe(1);
    expect(raised(() => pyLen(5))).toBe("TypeError: object of type 'int' has no len()");
  });

  it("list.remove drops the first equal element (1 == 1.0) or raises ValueError", () => {
    const list: PyValue[] = [pyFloat(1), 1, "a"];
    pyListRemove(list, 1);
    expect(pyRepr(list)).toBe("[1, 'a']");
    expect(raised(() => pyListRemove(list, "b"))).toBe("ValueError: list.remove(x): x not in list");
  });

  it("method receivers raise AttributeError for other types", () => {
    expect(raised(() => requireList("x", "append"))).toBe("AttributeError: 'str' object has no attribute 'append'");
    expect(raised(() => requireDict([1], "keys"))).toBe("AttributeError: 'list' object has no attribute 'keys'");
  });

  it("looks keys up with Python's hashing (1.0 and True find 1) and refuses unstorable keys with a TypeError", () => {
    const dict = pyDict([[1, "one"]]);
    expect(dictLookup(dict, pyFloat(1))).toBe("one");
    expect(dictLookup(dict, true)).toBe("one");
    expect(dictLookup(dict, 2)).toBeUndefined();
    expect(raised(() => dictLookup(dict, [1]))).toBe("TypeError: unhashable type: 'list'");
    setDictItem(dict, pyFloat(2.5), "x");
    setDictItem(dict, true, "uno");
    expect(pyRepr(dict)).toBe("{1: 'uno', 2.5: 'x'}");
    expect(raised(() => setDictItem(dict, pyTuple([1, 2]), "t"))).toBe(
      "TypeError: budgetrl stores only str, int, float, bool and None dict keys, not 'tuple'",
    );
  });
});
