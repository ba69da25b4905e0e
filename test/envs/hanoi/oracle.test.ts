import { describe, expect, it } from "vitest";
import { distanceTo, optimalMoves } from "../../../src/envs/hanoi/oracle.js";
import { checkMove, legalMoves, moveDisk, moveText, type Configuration } from "../../../src/envs/hanoi/rules.js";

/** Every configuration of n disks (3^n of them), as peg arrays. */
function allConfigurations(disks: number): number[][] {
  return Array.from({ length: 3 ** disks }, (_, code) =>
    Array.from({ length: disks }, (_, disk) => Math.floor(code / 3 ** disk) % 3),
  );
}

/** Distances to every disk on C by BFS over the full state graph (moves are reversible). */
function bfsDistances(disks: number): Map<string, number> {
  const target = new Array<number>(disks).fill(2);
  const distance = new Map([[target.join(""), 0]]);
  let frontier: Configuration[] = [target];
  for (let depth = 1; frontier.length > 0; depth++) {
    const next: Configuration[] = [];
    for (const pegs of frontier) {
      for (const [from, to] of legalMoves(pegs)) {
        const verdict = checkMove(pegs, from, to);
        if (!verdict.legal) continue;
        const moved = moveDisk(pegs, verdict.disk, to);
        if (!distance.has(moved.join(""))) {
          distance.set(moved.join(""), depth);
          next.push(moved);
        }
      }
    }
    frontier = next;
  }
  return distance;
}

describe("hanoi oracle", () => {
  it("needs 2^n - 1 moves from the standard start", () => {
    for (let disks = 1; disks <= 24; disks++) expect(distanceTo(new Array<number>(disks).fill(0))).toBe(2 ** disks - 1);
  });

  it("matches BFS from every configuration for n <= 6, with all optimal moves", () => {
    for (let disks = 1; disks <= 6; disks++) {
      const reference = bfsDistances(disks);
      expect(reference.size).toBe(3 ** disks);
      for (const pegs of allConfigurations(disks)) {
        const here = reference.get(pegs.join(""))!;
        expect(distanceTo(pegs)).toBe(here);
        const expected = legalMoves(pegs)
          .filter(
            ([from, to]) => here > 0 && reference.get(moveDisk(pegs, pegs.indexOf(from), to).join("")) === here - 1,
          )
          .map(([from, to]) => moveText(from, to));
        expect(optimalMoves(pegs)).toEqual(expected);
      }
    }
  });

  it("measures distances to any target peg", () => {
    expect(distanceTo([0, 0, 0], 1)).toBe(7);
    expect(distanceTo([1, 1, 1], 1)).toBe(0);
  });
});
