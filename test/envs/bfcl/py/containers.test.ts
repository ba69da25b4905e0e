// Membership, key lookup and iteration with CPython 3.11's hashing rules and TypeErrors.
import { describe, expect, it } from "vitest";
import { dictFindKey, dictHas, pyContains, pyIterate, sequenceHas } from "../../../../src/envs/bfcl/py/containers.js";
import { pyFloat, pyTuple, type PyDict } from "../../../../src/envs/bfcl/py/value.js";
import { raised } from "./raised.js";

describe("dict keys", () => {
  const dict: PyDict = new Map<string | number | boolean | null, number>([
    [12345, 1],
    ["AAPL", 2],
    [1, 3],
    [null, 4],
  ]);

  it("finds keys equal under Python's rules (12345.0 == 12345, True == 1)", () => {
    expect(dictFindKey(dict, pyFloat(12345))).toBe(12345);
    expect(dictFindKey(dict, true)).toBe(1);
    expect(dictFindKey(dict, "12345")).toBeUndefined();
    expect(dictHas(dict, null)).toBe(true);
    expect(dictHas(dict, pyTuple(["AAPL"]))).toBe(false);
    expect(dictHas(dict, pyFloat(NaN))).toBe(false);
  });

  it("raises TypeError for unhashable values, inside tuples too", () => {
    expect(raised(() => dictHas(dict, [1]))).toBe("TypeError: unhashable type: 'list'");
    expect(raised(() => dictHas(dict, new Map()))).toBe("TypeError: unhashable type: 'dict'");
    expect(raised(() => dictHas(dict, new Set([1])))).toBe("TypeError: unhashable type: 'set'");
    expect(raised(() => dictHas(dict, pyTuple([1, [2]])))).toBe("TypeError: unhashable type: 'list'");
  });
});

describe("pyContains and pyIterate", () => {
  it("tests membership for every container kind", () => {
    expect(sequenceHas(["a", 1], pyFloat(1))).toBe(true);
    expect(pyContains(pyTuple(["a"]), "a")).toBe(true);
    expect(pyContains(new Set([1]), true)).toBe(true);
    expect(pyContains("balance due", "balance")).toBe(true);
    expect(raised(() => pyContains("abc", 5))).toBe(
      "TypeError: 'in <string>' requires string as left operand, not int",
    );
    expect(raised(() => pyContains(5, "a"))).toBe("TypeError: argument of type 'int' is not iterable");
  });

  it("iterates like a for loop: characters of a str, keys of a dict", () => {
    expect(pyIterate("a\u{1F600}")).toEqual(["a", "\u{1F600}"]);
    expect(pyIterate(new Map([["k", 1]]))).toEqual(["k"]);
    expect(pyIterate(pyTuple([1, 2]))).toEqual([1, 2]);
    expect(raised(() => pyIterate(5))).toBe("TypeError: 'int' object is not iterable");
    expect(raised(() => pyIterate(null))).toBe("TypeError: 'NoneType' object is not iterable");
  });
});
