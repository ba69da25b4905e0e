import { describe, expect, it } from "vitest";
import { DIRECTIONS, directionsOfMask, flatOffsets, parseDirection } from "../../../src/envs/shared/directions.js";

describe("directions", () => {
  it("reads canonical names and aliases into DIRECTIONS indices", () => {
    expect(DIRECTIONS).toEqual(["Up", "Down", "Left", "Right"]);
    expect(parseDirection("Up")).toBe(0);
    expect(parseDirection("<answer>south</answer>")).toBe(1);
    expect(parseDirection("move left")).toBe(2);
    expect(parseDirection("→")).toBe(3);
    expect(parseDirection("sideways")).toBe(-1);
    expect(parseDirection("Up Down")).toBe(-1);
  });

  it("gives row-major flat offsets", () => {
    expect(flatOffsets(7)).toEqual([-7, 7, -1, 1]);
  });

  it("lists the directions of a 4-bit mask in DIRECTIONS order, one shared frozen array per mask", () => {
    expect(directionsOfMask(0)).toEqual([]);
    expect(directionsOfMask(0b1010)).toEqual(["Down", "Right"]);
    expect(directionsOfMask(15)).toEqual(DIRECTIONS);
    expect(directionsOfMask(5)).toBe(directionsOfMask(5));
    expect(Object.isFrozen(directionsOfMask(5))).toBe(true);
  });
});
