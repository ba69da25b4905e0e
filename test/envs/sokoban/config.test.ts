import { describe, expect, it } from "vitest";
import { ConfigError } from "../../../src/core/errors.js";
import { parseOptions } from "../../../src/core/options.js";
import { sokobanConfigSchema } from "../../../src/envs/sokoban/config.js";

describe("sokoban config", () => {
  it("defaults to RAGEN's 6x6 room with one box and a 4x reference factor", () => {
    expect(parseOptions("sokoban", sokobanConfigSchema, {})).toEqual({
      width: 6,
      height: 6,
      boxes: 1,
      searchDepth: 100,
      referenceFactor: 4,
      maxStates: 1_000_000,
    });
  });

  it("describes every option", () => {
    for (const field of Object.values(sokobanConfigSchema.shape))
      expect(field.description?.length ?? 0).toBeGreaterThan(10);
  });

  it("refuses out-of-range values, naming the option", () => {
    expect(() => parseOptions("sokoban", sokobanConfigSchema, { boxes: 0 })).toThrow(
      "sokoban.boxes: expected an integer from 1 to 6",
    );
    expect(() => parseOptions("sokoban", sokobanConfigSchema, { width: 4 })).toThrow(ConfigError);
    expect(() => parseOptions("sokoban", sokobanConfigSchema, { size: 6 })).toThrow("sokoban.size: unknown option");
  });
});
