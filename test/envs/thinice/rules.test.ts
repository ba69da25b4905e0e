import { describe, expect, it } from "vitest";
import { mapFromRows } from "../../../src/envs/thinice/maps.js";
import { compileIce, GOAL, ICE, ROCK, stepsOntoThinIce, THIN } from "../../../src/envs/thinice/rules.js";

describe("thinice rules", () => {
  // S~G
  // .#.
  const ice = compileIce(mapFromRows(["S~G", ".#."], "test"));
  const UP = 0;
  const DOWN = 1;
  const LEFT = 2;
  const RIGHT = 3;

  it("reads the cells of a map", () => {
    expect([...ice.kind]).toEqual([ICE, THIN, GOAL, ICE, ROCK, ICE]);
    expect(ice).toMatchObject({ width: 3, height: 2, start: 0 });
  });

  it("moves one cell, and stays in place at the edge and before a rock", () => {
    expect(ice.next[0 * 4 + RIGHT]).toBe(1);
    expect(ice.next[0 * 4 + DOWN]).toBe(3);
    expect(ice.next[0 * 4 + UP]).toBe(0);
    expect(ice.next[0 * 4 + LEFT]).toBe(0);
    expect(ice.next[3 * 4 + RIGHT]).toBe(3);
    expect(ice.next[1 * 4 + DOWN]).toBe(1);
    expect(ice.next[5 * 4 + UP]).toBe(2);
  });

  it("counts a move onto thin ice as a risk, and a bump on it as none", () => {
    expect(stepsOntoThinIce(ice, 0, 1)).toBe(true);
    expect(stepsOntoThinIce(ice, 1, 1)).toBe(false);
    expect(stepsOntoThinIce(ice, 1, 2)).toBe(false);
    const band = compileIce(mapFromRows(["S~~G"], "test"));
    expect(stepsOntoThinIce(band, 1, 2)).toBe(true);
  });
});
