import { describe, expect, it } from "vitest";
import { namedMap } from "../../../src/envs/frozenlake/maps.js";
import { compileLake, FROZEN, GOAL, HOLE, isTerminal, SLIP_OUTCOMES } from "../../../src/envs/frozenlake/rules.js";

describe("frozenlake rules", () => {
  const lake = compileLake(namedMap("4x4"));

  it("compiles cell kinds and the start", () => {
    expect(lake.start).toBe(0);
    expect(lake.kind[5]).toBe(HOLE);
    expect(lake.kind[15]).toBe(GOAL);
    expect(lake.kind[1]).toBe(FROZEN);
    expect(isTerminal(lake, 5)).toBe(true);
    expect(isTerminal(lake, 0)).toBe(false);
  });

  it("moves one cell, staying in place at the edge", () => {
    expect([0, 1, 2, 3].map((direction) => lake.next[0 * 4 + direction])).toEqual([0, 4, 0, 1]);
    expect([0, 1, 2, 3].map((direction) => lake.next[15 * 4 + direction])).toEqual([11, 15, 14, 15]);
  });

  it("slips only to the two perpendicular directions", () => {
    SLIP_OUTCOMES.forEach(([intended, first, second], direction) => {
      expect(intended).toBe(direction);
      const vertical = (d: number) => d < 2;
      expect(vertical(first)).not.toBe(vertical(direction));
      expect(vertical(second)).not.toBe(vertical(direction));
      expect(first).not.toBe(second);
    });
  });
});
