import { describe, expect, it } from "vitest";
import { DataError } from "../../../src/core/errors.js";
import type { Json } from "../../../src/core/json.js";
import {
  gridMapFromJson,
  gridMapFromRows,
  gridMapId,
  gridMapToJson,
  parseGridMaps,
  printGridMap,
  printGridMapWithPlayer,
  type GridMapFormat,
} from "../../../src/envs/shared/grid-maps.js";

// A format no env uses, so the tests see what comes from the format and not from an env.
const TOY: GridMapFormat = {
  env: "toy",
  cells: ["S", "W", "G"],
  maxSide: 3,
  namedMaps: { tiny: ["SG"], "2x2": ["SW", "WG"] },
};
const PLAIN: GridMapFormat = { env: "plain", cells: ["S", "G"], maxSide: 4 };

describe("grid maps", () => {
  it("reads rows trimmed and upper-cased, frozen, and names the format in every error", () => {
    const map = gridMapFromRows(TOY, [" sw ", "wg"], "map 1");
    expect(map.rows).toEqual(["SW", "WG"]);
    expect(Object.isFrozen(map) && Object.isFrozen(map.rows)).toBe(true);
    expect(() => gridMapFromRows(TOY, [], "map 1")).toThrow(/^toy map 1: empty map$/);
    expect(() => gridMapFromRows(TOY, ["SX"], "map 1")).toThrow(
      /^toy map 1, row 1: only S, W and G are allowed, got "SX"$/,
    );
    expect(() => gridMapFromRows(PLAIN, ["S", ""], "map 1")).toThrow(
      /^plain map 1, row 2: only S and G are allowed, got ""$/,
    );
    expect(() => gridMapFromRows(TOY, ["SW", "G"], "map 1")).toThrow(
      /row 2: has 1 cells, the first row has 2\nHINT: maps must be rectangular/,
    );
    expect(() => gridMapFromRows(TOY, ["SWWG"], "map 1")).toThrow(/^toy map 1: larger than 3x3$/);
    expect(gridMapFromRows(PLAIN, ["SGGG"], "map 1").rows).toEqual(["SGGG"]);
    expect(() => gridMapFromRows(TOY, ["SWS", "GWW"], "map 1")).toThrow(/^toy map 1: expected exactly one S, found 2$/);
    expect(() => gridMapFromRows(TOY, ["SWW"], "map 1")).toThrow(/^toy map 1: no goal \(G\)$/);
  });

  it("reads task files: blank lines between maps, comments, lower case, named maps on a line of their own", () => {
    const maps = parseGridMaps(TOY, "; a comment\nswg\n\n  TINY \r\n// another\nsw\r\nwg\n2X2\n");
    expect(maps.map((map) => map.rows)).toEqual([["SWG"], ["SG"], ["SW", "WG"], ["SW", "WG"]]);
    for (const map of maps) expect(parseGridMaps(TOY, printGridMap(map))).toEqual([map]);
    expect(() => parseGridMaps(TOY, "SG\n\nsW\nWGX")).toThrow(
      /^toy map 2, line 4: expected a row of S, W, G or a map name \(tiny, 2x2\), got "WGX"$/,
    );
    expect(() => parseGridMaps(PLAIN, "SG\nconstructor")).toThrow(
      /^plain map 1, line 2: expected a row of S or G, got "constructor"$/,
    );
    expect(() => parseGridMaps(TOY, "SG\n\nSW\nW")).toThrow(/^toy map 2 \(line 3\), row 2: has 1 cells/);
    expect(() => parseGridMaps(TOY, "\n; nothing\n")).toThrow(/^toy: no maps found in the file$/);
  });

  it("stores a map as {rows} and reads it back, with the format's id", () => {
    const map = gridMapFromRows(TOY, ["SW", "WG"], "map 1");
    expect(gridMapFromJson(TOY, gridMapToJson(map))).toEqual(map);
    expect(gridMapFromJson(TOY, { rows: ["sw", "wg"] })).toEqual(map);
    const notMaps: Json[] = [null, 1, ["SG"], {}, { rows: "SG" }, { rows: ["SG", 1] }];
    for (const json of notMaps)
      expect(() => gridMapFromJson(TOY, json)).toThrow(/^toy: a task must be \{"rows": \[string, \.\.\.\]\}$/);
    expect(() => gridMapFromJson(TOY, { rows: ["SW"] })).toThrow(/^toy task: no goal/);
    expect(gridMapId(TOY, map)).toMatch(/^toy-[0-9a-f]{14}$/);
    expect(gridMapId(PLAIN, map).slice(6)).toBe(gridMapId(TOY, map).slice(4));
    expect(gridMapId(TOY, gridMapFromRows(TOY, ["SG"], "map 1"))).not.toBe(gridMapId(TOY, map));
    expect(() => gridMapFromJson(PLAIN, { rows: [] })).toThrow(DataError);
  });

  it("draws the player as P on its cell, row-major from the top-left", () => {
    const map = gridMapFromRows(TOY, ["SWW", "WWG"], "map 1");
    expect(printGridMapWithPlayer(map, 0)).toBe("PWW\nWWG");
    expect(printGridMapWithPlayer(map, 2)).toBe("SWP\nWWG");
    expect(printGridMapWithPlayer(map, 4)).toBe("SWW\nWPG");
    expect(printGridMap(map)).toBe("SWW\nWWG");
  });
});
