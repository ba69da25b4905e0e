// State dumps: backend instances' public attributes as plain Python data, in upstream attribute order.
import { describe, expect, it } from "vitest";
import type { BfclInstance } from "../../../../src/envs/bfcl/apis/backend-class.js";
import { instancesState, instanceState } from "../../../../src/envs/bfcl/check/state-dump.js";
import { pyJsonDumps } from "../../../../src/envs/bfcl/py/format.js";
import { pyDict, pyFloat, pyTuple, type PyObject, type PyValue } from "../../../../src/envs/bfcl/py/value.js";

function instance(attributes: readonly (readonly [string, PyValue])[]): BfclInstance {
  return { loadScenario: () => undefined, publicState: () => attributes };
}

describe("instanceState", () => {
  it("turns keys into strings, sets into sorted lists and tuples into lists, keeping attribute order", () => {
    const state = instanceState(
      instance([
        [
          "zeta",
          pyDict([
            [2, "two"],
            [1, pyTuple([true, pyFloat(1.5)])],
          ]),
        ],
        ["alpha", new Set(["b", "a"])],
      ]),
    );
    expect(pyJsonDumps(state)).toBe('{"zeta": {"2": "two", "1": [true, 1.5]}, "alpha": ["a", "b"]}');
  });

  it("shows objects by class and attributes, skipping back-references so that trees stay trees", () => {
    const root: PyObject = {
      kind: "object",
      pyClass: "Directory",
      pyAttributes: () => [
        ["name", "/"],
        ["parent", null],
        ["contents", pyDict([["a.txt", file]])],
      ],
      pyRepr: () => "<Directory: />",
      pyEquals: (other) => other === root,
    };
    const file: PyObject = {
      kind: "object",
      pyClass: "File",
      pyAttributes: () => [
        ["name", "a.txt"],
        ["parent", root],
        ["content", "hi"],
      ],
      pyRepr: () => "<File: a.txt>",
      pyEquals: (other) => other === file,
    };
    expect(pyJsonDumps(instanceState(instance([["root", root]])))).toBe(
      '{"root": {"__class__": "Directory", "name": "/", "parent": null, "contents": {"a.txt": {"__class__": "File", "name": "a.txt", "content": "hi"}}}}',
    );
  });
});

describe("instancesState", () => {
  it("keys every instance by its class name, in the set's order", () => {
    const state = instancesState(
      new Map([
        ["TicketAPI", instance([["ticket_counter", 3]])],
        ["MathAPI", instance([])],
      ]),
    );
    expect(pyJsonDumps(state)).toBe('{"TicketAPI": {"ticket_counter": 3}, "MathAPI": {}}');
  });
});
