import { describe, expect, it } from "vitest";
import { thinIceConfigSchema, type ThinIceConfig } from "../../../src/envs/thinice/config.js";
import {
  allLayouts,
  BARRIER,
  cellRoles,
  CORRIDOR,
  DECORATION,
  depthsFor,
  distinctTaskCount,
  generateMap,
  layoutRows,
  lengthsFor,
  THIN_ICE,
  WALL,
} from "../../../src/envs/thinice/generator.js";
import { printMap } from "../../../src/envs/thinice/maps.js";
import { hasTradeoff, routeLengths } from "../../../src/envs/thinice/routes.js";
import { compileIce } from "../../../src/envs/thinice/rules.js";
import { parseOptions } from "../../../src/core/options.js";

const config = (options: Record<string, unknown> = {}): ThinIceConfig =>
  parseOptions("thinice", thinIceConfigSchema, options);

describe("thinice generator", () => {
  const defaults = config();

  it("knows which lengths and depths give the trade-off", () => {
    expect(lengthsFor(defaults)).toEqual([2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(depthsFor(2, 5)).toEqual([1]);
    expect(depthsFor(6, 5)).toEqual([2, 3, 4]);
    expect(depthsFor(10, 5)).toEqual([3, 4]);
    expect(depthsFor(10, 3)).toEqual([]);
    expect(lengthsFor(config({ width: 11, height: 3 }))).toEqual([2, 3, 4, 5, 6]);
  });

  it("carves a corridor along row 0 over the thin ice, with a U-shaped channel round the barrier, walled in rock", () => {
    const layout = { length: 5, depth: 3, band: 2, start: 1, barrier: 3, flipRows: false, flipColumns: false };
    const shape = { width: 9, height: 5 };
    const noRocks = new Uint8Array(45);
    // Decoration left as ice: it cannot be reached from the corridor.
    expect(layoutRows(layout, noRocks, shape)).toEqual([
      "#S.~~.G#.",
      ".#.##.#..",
      ".#.##.#..",
      ".#....#..",
      "..####...",
    ]);
    expect(layoutRows(layout, new Uint8Array(45).fill(1), shape)).toEqual([
      "#S.~~.G##",
      "##.##.###",
      "##.##.###",
      "##....###",
      "#########",
    ]);
    expect(layoutRows({ ...layout, flipRows: true, flipColumns: true }, noRocks, shape)).toEqual([
      "...####..",
      "..#....#.",
      "..#.##.#.",
      "..#.##.#.",
      ".#G.~~.S#",
    ]);
    const roles = cellRoles(layout, shape);
    expect(Array.from({ length: 5 }, (_, row) => [...roles.slice(row * 9, row * 9 + 9)].join(""))).toEqual([
      "300110034",
      "430220344",
      "430220344",
      "430000344",
      "443333444",
    ]);
    expect([CORRIDOR, THIN_ICE, BARRIER, WALL, DECORATION]).toEqual([0, 1, 2, 3, 4]);
  });

  it("gives every map the drawn trade-off: S and G on one edge row, every shortest route over thin ice", () => {
    for (let seed = 0; seed < 1000; seed++) {
      const map = generateMap(defaults, seed);
      expect(map.rows).toHaveLength(5);
      expect(map.rows.every((row) => row.length === 11)).toBe(true);
      const edge = map.rows.findIndex((row) => row.includes("S"));
      expect(edge).toBe(0);
      expect(map.rows[edge]).toContain("G");
      expect(map.rows[edge]!.indexOf("S")).toBeLessThan(map.rows[edge]!.indexOf("G"));
      expect(map.rows[edge]).toContain("~");
      expect(map.rows.filter((row) => row.includes("~"))).toHaveLength(1);
      const lengths = routeLengths(compileIce(map));
      expect(hasTradeoff(lengths)).toBe(true);
      expect(lengths.short).toBe(Math.abs(map.rows[edge]!.indexOf("G") - map.rows[edge]!.indexOf("S")));
    }
  });

  it("is reproducible and gives different maps for different seeds", () => {
    for (let seed = 0; seed < 50; seed++) expect(generateMap(defaults, seed)).toEqual(generateMap(config(), seed));
    const distinct = new Set(Array.from({ length: 1000 }, (_, seed) => printMap(generateMap(defaults, seed))));
    expect(distinct.size).toBe(1000);
  });

  it("draws lengths uniformly over 2-10, bands of 1 and 2 cells, flips when mirrored, and rocks at the asked rate", () => {
    const byLength = new Map<number, number>();
    let wide = 0;
    let rocks = 0;
    let decoration = 0;
    const seeds = 4500;
    for (let seed = 0; seed < seeds; seed++) {
      const { rows } = generateMap(defaults, seed);
      const [start, goal, barrier] = [rows[0]!.indexOf("S"), rows[0]!.indexOf("G"), rows[0]!.indexOf("~")];
      const band = rows[0]!.split("~").length - 1;
      const depth = rows.findIndex((row, index) => index > 0 && row[barrier] === ".");
      byLength.set(goal - start, (byLength.get(goal - start) ?? 0) + 1);
      if (band === 2) wide += 1;
      const roles = cellRoles(
        { length: goal - start, depth, band, start, barrier, flipRows: false, flipColumns: false },
        defaults,
      );
      const text = rows.join("");
      roles.forEach((role, cell) => {
        if (role !== DECORATION) return;
        decoration += 1;
        if (text[cell] === "#") rocks += 1;
      });
    }
    // 500 expected per length; a binomial standard deviation is 21.
    expect([...byLength.keys()].sort((a, b) => a - b)).toEqual([2, 3, 4, 5, 6, 7, 8, 9, 10]);
    for (const count of byLength.values()) expect(Math.abs(count - 500)).toBeLessThan(100);
    // Bands of 2 need length >= 3: 8 of 9 lengths draw one half the time.
    expect(Math.abs(wide / seeds - 4 / 9)).toBeLessThan(0.03);
    expect(Math.abs(rocks / decoration - 0.5)).toBeLessThan(0.01);
    const mirrored = config({ mirror: true });
    const edges = Array.from({ length: 1000 }, (_, seed) => generateMap(mirrored, seed).rows).map((rows) => {
      const edge = rows.findIndex((row) => row.includes("S"));
      return [
        edge === 0 ? "top" : "bottom",
        rows[edge]!.indexOf("G") > rows[edge]!.indexOf("S") ? "right" : "left",
      ].join(" ");
    });
    for (const kind of ["top right", "top left", "bottom right", "bottom left"])
      expect(Math.abs(edges.filter((edge) => edge === kind).length - 250)).toBeLessThan(60);
  });

  it("leaves only the corridor open when every decoration cell is rock", () => {
    const walled = config({ rocks: 1 });
    for (let seed = 0; seed < 200; seed++) {
      const { rows } = generateMap(walled, seed);
      const { short, safe } = routeLengths(compileIce({ rows }));
      // Open cells: S, G and the ice of row 0 (short + 1 cells less the band) and the U (2 depth + band).
      expect(rows.join("").replace(/[#~]/g, "")).toHaveLength(safe + 1);
      expect(short).toBeLessThan(safe);
    }
  });

  it("counts the distinct maps exactly: every one is drawn from enough seeds", () => {
    const small = config({ width: 5, height: 3, mirror: true });
    const seen = new Set<string>();
    for (let seed = 0; seed < 20_000; seed++) seen.add(printMap(generateMap(small, seed)));
    expect(distinctTaskCount(small)).toBe(332n);
    expect(BigInt(seen.size)).toBe(332n);
    expect(distinctTaskCount(config({ rocks: 0 }))).toBe(BigInt(allLayouts(config({ rocks: 0 })).length));
    expect(distinctTaskCount(config({ rocks: 1 }))).toBe(606n);
    expect(distinctTaskCount(defaults)).toBe(130_232_083_808_256n);
  });
});
