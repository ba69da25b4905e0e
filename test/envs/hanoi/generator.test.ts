import { describe, expect, it } from "vitest";
import { generateHanoi } from "../../../src/envs/hanoi/generator.js";

describe("hanoi generator", () => {
  it("starts every disk on A by default, whatever the seed", () => {
    expect(generateHanoi(4, false, 1)).toEqual({ disks: 4, start: "AAAA" });
    expect(generateHanoi(4, false, 2)).toEqual(generateHanoi(4, false, 1));
  });

  it("draws random unsolved starts reproducibly, covering all pegs", () => {
    const starts = Array.from({ length: 200 }, (_, seed) => generateHanoi(3, true, seed).start);
    expect(generateHanoi(3, true, 5)).toEqual(generateHanoi(3, true, 5));
    expect(starts).not.toContain("CCC");
    expect(new Set(starts).size).toBe(26);
    expect(generateHanoi(1, true, 0).start).not.toBe("C");
  });
});
