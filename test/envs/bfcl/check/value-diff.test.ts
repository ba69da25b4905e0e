// diffValues: readable lines naming where model and ground-truth values differ.
import { describe, expect, it } from "vitest";
import { diffValues, shortRepr } from "../../../../src/envs/bfcl/check/value-diff.js";
import { pyDictOf, pyFloat, pyTuple, type PyObject, type PyValue } from "../../../../src/envs/bfcl/py/value.js";

function file(name: string, content: string): PyObject {
  return {
    kind: "object",
    pyClass: "File",
    pyAttributes: () => [
      ["name", name],
      ["content", content],
    ],
    pyRepr: () => `<File: ${name}>`,
    pyEquals: (other: PyValue) =>
      typeof other === "object" &&
      other !== null &&
      "pyClass" in other &&
      other.pyClass === "File" &&
      other.pyAttributes()[1]?.[1] === content,
  };
}

describe("diffValues", () => {
  it("walks dicts, lists and instances down to the differing leaves", () => {
    const model = pyDictOf({ a: 1, b: [1, 2, 3], c: pyDictOf({ f: file("x", "old") }), extra: true });
    const truth = pyDictOf({ a: 1, b: [1, 5, 3], c: pyDictOf({ f: file("x", "new") }), gone: null });
    expect(diffValues(model, truth, "S")).toEqual([
      "S['b'][1]: model 2, ground truth 5",
      "S['c']['f'].content: model 'old', ground truth 'new'",
      "S['gone']: missing in model (ground truth: None)",
      "S['extra']: extra in model (True)",
    ]);
  });

  it("shows whole values when shapes differ, compares sets by members and numbers by value", () => {
    expect(diffValues([1, 2], [1, 2, 3], "L")).toEqual(["L: model [1, 2], ground truth [1, 2, 3]"]);
    expect(diffValues([1, 2], pyTuple([1, 2]), "T")).toEqual(["T: model [1, 2], ground truth (1, 2)"]);
    expect(diffValues(new Set(["a", "b"]), new Set(["b", "c"]), "S")).toEqual([
      "S: set differs; missing in model: ['c']; extra in model: ['a']",
    ]);
    expect(diffValues(2, pyFloat(2), "N")).toEqual([]);
  });

  it("stops at the line limit and shortens long values", () => {
    const many = Array.from({ length: 50 }, (_, index) => index);
    expect(
      diffValues(
        many,
        many.map((value) => value + 1),
        "L",
        5,
      ),
    ).toHaveLength(5);
    expect(shortRepr("x".repeat(500), 20)).toBe(`'xxxxxxxxxxxxxxxxxxx... (502 chars)`);
  });
});
