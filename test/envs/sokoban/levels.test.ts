import { describe, expect, it } from "vitest";
import { DataError } from "../../../src/core/errors.js";
import { levelFromRows, parseLevels, printLevel } from "../../../src/envs/sokoban/levels.js";

const BOXOBAN = `; 0
#####
#@$.#
#####
; 1
######
#.  $@#
######
`;

describe("sokoban levels", () => {
  it("reads Boxoban-style files with ; headers", () => {
    const levels = parseLevels(BOXOBAN);
    expect(levels.map((level) => level.rows)).toEqual([
      ["#####", "#@$.#", "#####"],
      ["######", "#.  $@#", "######"].map((row) => row.padEnd(7, " ")),
    ]);
  });

  it("reads blank-line separated levels, pads ragged rows and accepts - and _ as floor", () => {
    const levels = parseLevels("####\n#@$.#\n####\n\n\n  #####\n  #+*$ #\n  #-_ #\n  #####\r\n");
    expect(levels).toHaveLength(2);
    expect(levels[0]!.rows).toEqual(["#### ", "#@$.#", "#### "]);
    expect(levels[1]!.rows[2]).toBe("  #   # ");
  });

  it("prints a level so that it reads back identically", () => {
    for (const level of parseLevels(BOXOBAN)) expect(parseLevels(printLevel(level))).toEqual([level]);
  });

  it("refuses malformed levels, naming the level and line", () => {
    expect(() => parseLevels("#####\n#@$.#\n#####\n\n#####\n# $.#\n#####")).toThrow(
      /level 2 \(line 5\).*exactly one player/,
    );
    expect(() => parseLevels("#####\n#@$@.#\n#####")).toThrow(/found 2/);
    expect(() => parseLevels("######\n#@$$.#\n######")).toThrow(/2 boxes but 1 goals/);
    expect(() => parseLevels("#####\n#@ .#\n#####")).toThrow(/no boxes/);
    expect(() => parseLevels("#####\n#@*##\n#####")).toThrow(/already on a goal/);
    expect(() => parseLevels("#####\n#@$.#\n#x###")).toThrow(/line 3: unexpected character "x"/);
    expect(() => parseLevels("; only a header\n")).toThrow(DataError);
    expect(() => levelFromRows(["#".repeat(65)], "level 1")).toThrow(/larger than 64x64/);
  });
});
