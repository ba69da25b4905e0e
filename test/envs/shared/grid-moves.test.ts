import { describe, expect, it } from "vitest";
import { DIRECTIONS } from "../../../src/envs/shared/directions.js";
import { compileGridMoves } from "../../../src/envs/shared/grid-moves.js";

// Kinds of a toy map: 0 floor (also S), 1 wall (X), 2 goal (G).
const kindOf = (char: string): number => (char === "X" ? 1 : char === "G" ? 2 : 0);
const isWall = (kind: number): boolean => kind === 1;
/** Every cell's four moves, in DIRECTIONS order (Up, Down, Left, Right). */
const moves = (next: Int32Array): number[][] =>
  Array.from({ length: next.length / 4 }, (_, cell) => [...next.subarray(4 * cell, 4 * cell + 4)]);

describe("grid moves", () => {
  //   . S X      cells 0 1 2
  //   . G .            3 4 5
  const rows = [".SX", ".G."];

  it("reads kinds row-major from the top-left, and the start", () => {
    const grid = compileGridMoves(rows, kindOf, isWall);
    expect(grid).toMatchObject({ width: 3, height: 2, start: 1 });
    expect([...grid.kind]).toEqual([0, 0, 1, 0, 2, 0]);
    expect(DIRECTIONS).toEqual(["Up", "Down", "Left", "Right"]);
  });

  it("moves one cell; off the map or into a wall leaves the player in place", () => {
    expect(moves(compileGridMoves(rows, kindOf, isWall).next)).toEqual([
      [0, 3, 0, 1],
      [1, 4, 0, 1],
      [2, 5, 1, 2],
      [0, 3, 3, 4],
      [1, 4, 3, 5],
      [5, 5, 4, 5],
    ]);
  });

  it("has no walls unless the env names them", () => {
    const open = moves(compileGridMoves(rows, kindOf).next);
    expect(open[1]).toEqual([1, 4, 0, 2]);
    expect(open[5]).toEqual([2, 5, 4, 5]);
  });
});
