import { describe, expect, it } from "vitest";
import { frozenLakeConfigSchema } from "../../../src/envs/frozenlake/config.js";
import { parseOptions } from "../../../src/core/options.js";

describe("frozenlake config", () => {
  it("defaults to generated 4x4 maps at p = 0.8 on dry ice", () => {
    expect(parseOptions("frozenlake", frozenLakeConfigSchema, {})).toEqual({
      size: 4,
      p: 0.8,
      slippery: false,
      map: null,
      referenceFactor: 4,
    });
  });

  it("reads named maps and refuses unknown ones and bad fractions", () => {
    expect(parseOptions("frozenlake", frozenLakeConfigSchema, { map: "8x8" }).map).toBe("8x8");
    expect(() => parseOptions("frozenlake", frozenLakeConfigSchema, { map: "5x5" })).toThrow(
      "frozenlake.map: expected one of 4x4, 8x8",
    );
    expect(() => parseOptions("frozenlake", frozenLakeConfigSchema, { p: 1.5 })).toThrow(
      "frozenlake.p: expected a number from 0.05 to 1",
    );
    expect(() => parseOptions("frozenlake", frozenLakeConfigSchema, { size: 1 })).toThrow("frozenlake.size");
  });
});
