import { describe, expect, it } from "vitest";
import { DataError } from "../../../src/core/errors.js";
import { mapFromRows, parseMaps, printMap } from "../../../src/envs/thinice/maps.js";

describe("thinice maps", () => {
  it("reads maps separated by blank lines, with comments and lower-case S and G", () => {
    const tasks = parseMaps("; two maps\nS~G\n...\n\n  s.~.g  \r\n  ..#..\n// end\n");
    expect(tasks.map((task) => task.rows)).toEqual([
      ["S~G", "..."],
      ["S.~.G", "..#.."],
    ]);
    for (const task of tasks) expect(parseMaps(printMap(task))).toEqual([task]);
  });

  it("refuses malformed maps, naming the map and line", () => {
    expect(() => parseMaps("S~G\n...\n\nS~G\n..")).toThrow(/map 2 \(line 4\), row 2: has 2 cells/);
    expect(() => parseMaps("S~X\n...")).toThrow(/line 1: expected a row of S, G/);
    expect(() => parseMaps("SPG")).toThrow(/line 1: expected a row/);
    expect(() => parseMaps("S~S\nG..")).toThrow(/exactly one S, found 2/);
    expect(() => parseMaps("S~.\n...")).toThrow(/no goal/);
    expect(() => parseMaps("\n; nothing\n")).toThrow(DataError);
    expect(() => mapFromRows([], "map 1")).toThrow(/empty map/);
    expect(() => mapFromRows(["S" + ".".repeat(32) + "G"], "map 1")).toThrow(/larger than 32x32/);
  });

  it("accepts maps without a trade-off or a reachable goal (the oracle reports them)", () => {
    expect(parseMaps("S#G")[0]!.rows).toEqual(["S#G"]);
    expect(parseMaps("S.G")[0]!.rows).toEqual(["S.G"]);
  });
});
