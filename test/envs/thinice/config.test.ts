import { describe, expect, it } from "vitest";
import { thinIceConfigSchema } from "../../../src/envs/thinice/config.js";
import { parseOptions } from "../../../src/core/options.js";

describe("thinice config", () => {
  it("defaults to 11x5 maps, q = 0.4, bands of up to 2 cells, no mirroring, half-rock decoration and a 3x reference", () => {
    expect(parseOptions("thinice", thinIceConfigSchema, {})).toEqual({
      width: 11,
      height: 5,
      q: 0.4,
      band: 2,
      mirror: false,
      rocks: 0.5,
      referenceFactor: 3,
    });
  });

  it("reads options given as text and refuses values out of range, naming them", () => {
    expect(parseOptions("thinice", thinIceConfigSchema, { q: "0.3", width: "7", mirror: "true" })).toMatchObject({
      q: 0.3,
      width: 7,
      mirror: true,
    });
    expect(() => parseOptions("thinice", thinIceConfigSchema, { q: 1 })).toThrow(
      "thinice.q: expected a number from 0.05 to 0.95",
    );
    expect(() => parseOptions("thinice", thinIceConfigSchema, { width: 2 })).toThrow("thinice.width");
    expect(() => parseOptions("thinice", thinIceConfigSchema, { height: 1 })).toThrow("thinice.height");
    expect(() => parseOptions("thinice", thinIceConfigSchema, { rocks: 1.5 })).toThrow(
      "thinice.rocks: expected a number from 0 to 1",
    );
    expect(() => parseOptions("thinice", thinIceConfigSchema, { slippery: true })).toThrow(
      "thinice.slippery: unknown option",
    );
  });
});
