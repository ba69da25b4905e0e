import { describe, expect, it } from "vitest";
import { parseMove } from "../../../src/envs/hanoi/actions.js";

describe("hanoi moves", () => {
  it("reads the canonical form and common variants", () => {
    for (const reply of [
      "A->C",
      "a->c",
      "<answer>A->C</answer>",
      "AC",
      "A C",
      "A-C",
      "A to C",
      "A→C",
      "A, C",
      "A=>C",
      "move A to C",
      "Move disk 1 from A to C.",
      "from peg A to peg C",
      "**A -> C**",
    ]) {
      expect(parseMove(reply)).toEqual([0, 2]);
    }
    expect(parseMove("C->B")).toEqual([2, 1]);
    expect(parseMove("B->B")).toEqual([1, 1]);
  });

  it("reads nothing from other text", () => {
    for (const reply of ["", "A", "A->D", "ABC", "1->3", "move it", "A->C please", "x".repeat(1000)])
      expect(parseMove(reply)).toBeNull();
  });
});
