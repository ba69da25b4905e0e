// Instance __dict__ emulation: public attributes in assignment order, AttributeError for unassigned ones.
import { describe, expect, it } from "vitest";
import { attribute, publicAttributes, type InstanceVars } from "../../../../src/envs/bfcl/py/attributes.js";
import { PyException } from "../../../../src/envs/bfcl/py/errors.js";

describe("instance attributes", () => {
  it("lists public attributes in first-assignment order; re-assignment keeps the place", () => {
    const vars: InstanceVars = new Map();
    vars.set("b", 1).set("_private", 2).set("a", 3).set("b", 4);
    expect(publicAttributes(vars)).toEqual([
      ["b", 4],
      ["a", 3],
    ]);
  });

  it("raises Python's AttributeError for an attribute never assigned", () => {
    const vars: InstanceVars = new Map();
    expect(() => attribute(vars, "TicketAPI", "ticket_queue")).toThrow(PyException);
    try {
      attribute(vars, "TicketAPI", "ticket_queue");
    } catch (error) {
      expect((error as PyException).text).toBe("'TicketAPI' object has no attribute 'ticket_queue'");
    }
  });
});
