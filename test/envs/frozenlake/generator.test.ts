import { describe, expect, it } from "vitest";
import { generateMap, goalReachable } from "../../../src/envs/frozenlake/generator.js";

describe("frozenlake generator", () => {
  it("checks reachability through non-hole cells", () => {
    expect(goalReachable(["SFH", "HFH", "HFG"])).toBe(true);
    expect(goalReachable(["SFH", "FHF", "HFG"])).toBe(false);
  });

  it("puts S top-left and G bottom-right, with a reachable goal, reproducibly", () => {
    for (let seed = 0; seed < 100; seed++) {
      const map = generateMap(6, 0.7, seed);
      expect(map.rows).toHaveLength(6);
      expect(map.rows[0]![0]).toBe("S");
      expect(map.rows[5]![5]).toBe("G");
      expect(goalReachable(map.rows)).toBe(true);
      expect(generateMap(6, 0.7, seed)).toEqual(map);
    }
  });

  it("makes cells frozen with probability p (before the reachability filter)", () => {
    // With p = 0.95 almost every draw is accepted, so the frozen fraction stays close to p.
    let frozen = 0;
    let cells = 0;
    for (let seed = 0; seed < 200; seed++) {
      const inner = generateMap(8, 0.95, seed).rows.join("").slice(1, -1);
      frozen += inner.split("").filter((cell) => cell === "F").length;
      cells += inner.length;
    }
    expect(Math.abs(frozen / cells - 0.95)).toBeLessThan(0.01);
  });

  it("gives different maps for different seeds", () => {
    const distinct = new Set(Array.from({ length: 30 }, (_, seed) => generateMap(4, 0.8, seed).rows.join("")));
    expect(distinct.size).toBeGreaterThan(15);
  });
});
