// pyToJson: Python values as plain JSON (dict keys as strings, sets sorted, instances by class and attributes).
import { describe, expect, it } from "vitest";
import { PY_ELLIPSIS } from "../../../../src/envs/bfcl/py/ellipsis.js";
import { pyToJson } from "../../../../src/envs/bfcl/py/to-json.js";
import { pyDict, pyFloat, pyTuple, type PyObject } from "../../../../src/envs/bfcl/py/value.js";

describe("pyToJson", () => {
  it("turns Python values into plain JSON", () => {
    const value = pyDict([
      [1, pyTuple([true, null])],
      [null, new Set([3, 1])],
      ["f", pyFloat(2)],
      [false, pyFloat(NaN)],
      ["e", PY_ELLIPSIS],
    ]);
    expect(pyToJson(value)).toEqual({ "1": [true, null], None: [1, 3], f: 2, False: "nan", e: "Ellipsis" });
  });

  it("shows instances by class and public attributes, skipping back-references", () => {
    const parent: PyObject = {
      kind: "object",
      pyClass: "Directory",
      pyAttributes: () => [
        ["name", "/"],
        ["contents", pyDict([["a", child]])],
      ],
      pyRepr: () => "<Directory: />",
      pyEquals: (other) => other === parent,
    };
    const child: PyObject = {
      kind: "object",
      pyClass: "File",
      pyAttributes: () => [
        ["name", "a"],
        ["parent", parent],
      ],
      pyRepr: () => "<File: a>",
      pyEquals: (other) => other === child,
    };
    expect(pyToJson(parent)).toEqual({
      __class__: "Directory",
      name: "/",
      contents: { a: { __class__: "File", name: "a" } },
    });
  });
});
