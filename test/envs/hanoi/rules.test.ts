import { describe, expect, it } from "vitest";
import { checkMove, isSolved, legalMoves, moveDisk, moveText, topDisk } from "../../../src/envs/hanoi/rules.js";

describe("hanoi rules", () => {
  // Disks 1..3 (smallest first): disk 1 on B, disks 2 and 3 on A.
  const pegs = [1, 0, 0];

  it("finds the top disk of each peg", () => {
    expect([0, 1, 2].map((peg) => topDisk(pegs, peg))).toEqual([1, 0, -1]);
  });

  it("allows moving a top disk onto an empty peg or a larger disk only", () => {
    expect(checkMove(pegs, 0, 2)).toEqual({ legal: true, disk: 1 });
    expect(checkMove(pegs, 1, 0)).toEqual({ legal: true, disk: 0 });
    expect(checkMove(pegs, 0, 1)).toEqual({ legal: false, reason: "disk 2 cannot go onto the smaller disk 1" });
    expect(checkMove(pegs, 2, 0)).toEqual({ legal: false, reason: "peg C is empty" });
    expect(checkMove(pegs, 0, 0).legal).toBe(false);
  });

  it("lists legal moves in canonical order and applies them", () => {
    expect(legalMoves(pegs).map(([from, to]) => moveText(from, to))).toEqual(["A->C", "B->A", "B->C"]);
    expect(moveDisk(pegs, 1, 2)).toEqual([1, 2, 0]);
    expect(pegs).toEqual([1, 0, 0]);
    expect(isSolved([2, 2, 2])).toBe(true);
    expect(isSolved([2, 2, 1])).toBe(false);
  });
});
