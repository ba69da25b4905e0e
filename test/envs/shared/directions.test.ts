import { describe, expect, it } from "vitest";
import { DIRECTIONS, flatOffsets, parseDirection } from "../../../src/envs/shared/directions.js";

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
});
