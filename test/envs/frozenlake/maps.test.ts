import { describe, expect, it } from "vitest";
import { DataError } from "../../../src/core/errors.js";
import {
  FROZENLAKE_MAPS,
  frozenLakeStructureKey,
  mapFromRows,
  NAMED_MAPS,
  namedMap,
  parseMaps,
  printMap,
} from "../../../src/envs/frozenlake/maps.js";
import { gridMapId } from "../../../src/envs/shared/grid-maps.js";

describe("frozenlake maps", () => {
  it("reproduces Gymnasium's named maps exactly", () => {
    expect(namedMap("4x4").rows).toEqual(["SFFF", "FHFH", "FFFH", "HFFG"]);
    expect(namedMap("8x8").rows).toEqual([
      "SFFFFFFF",
      "FFFFFFFF",
      "FFFHFFFF",
      "FFFFFHFF",
      "FFFHFFFF",
      "FHHFFFHF",
      "FHFFHFHF",
      "FFFHFFFG",
    ]);
    expect(Object.keys(NAMED_MAPS)).toEqual(["4x4", "8x8"]);
  });

  it("reads maps separated by blank lines, named maps and comments", () => {
    const tasks = parseMaps("; my maps\nSF\nFG\n\n8x8\n  sfh\n  ffg  \r\n// end\n4X4\n");
    expect(tasks.map((task) => task.rows)).toEqual([
      ["SF", "FG"],
      NAMED_MAPS["8x8"],
      ["SFH", "FFG"],
      NAMED_MAPS["4x4"],
    ]);
    for (const task of tasks) expect(parseMaps(printMap(task))).toEqual([task]);
  });

  it("refuses malformed maps, naming the map and line", () => {
    expect(() => parseMaps("SF\nFG\n\nSFF\nFG")).toThrow(/map 2 \(line 4\), row 2: has 2 cells/);
    expect(() => parseMaps("SX\nFG")).toThrow(/line 1: expected a row/);
    expect(() => parseMaps("SS\nFG")).toThrow(/exactly one S, found 2/);
    expect(() => parseMaps("SF\nFF")).toThrow(/no goal/);
    expect(() => parseMaps("\n; nothing\n")).toThrow(DataError);
    expect(() => namedMap("16x16")).toThrow(/named maps are 4x4, 8x8/);
    expect(() => mapFromRows(["S" + "F".repeat(64) + "G"], "map 1")).toThrow(/larger than 64x64/);
  });

  it("accepts maps whose goal is cut off (the oracle reports it)", () => {
    expect(parseMaps("SH\nHG")[0]!.rows).toEqual(["SH", "HG"]);
  });

  it("keys a map's structure by the cells the player can enter: frozen cells cut off by holes count as holes", () => {
    const pocket = mapFromRows(["SFFH", "FFHF", "FFFH", "HFFG"], "test");
    const filled = mapFromRows(["SFFH", "FFHH", "FFFH", "HFFG"], "test");
    expect(frozenLakeStructureKey(pocket)).toBe(frozenLakeStructureKey(filled));
    expect(frozenLakeStructureKey(filled)).toBe(gridMapId(FROZENLAKE_MAPS, filled));
    expect(frozenLakeStructureKey(namedMap("4x4"))).toBe(gridMapId(FROZENLAKE_MAPS, namedMap("4x4")));
    expect(frozenLakeStructureKey(mapFromRows(["SFFF", "FFHF", "FFFH", "HFFG"], "test"))).not.toBe(
      frozenLakeStructureKey(filled),
    );
  });
});
