import { describe, expect, it } from "vitest";
import { hanoiConfigSchema } from "../../../src/envs/hanoi/config.js";
import { parseOptions } from "../../../src/core/options.js";

describe("hanoi config", () => {
  it("defaults to 3 disks starting on A", () => {
    expect(parseOptions("hanoi", hanoiConfigSchema, {})).toEqual({ disks: 3, randomStart: false, referenceFactor: 4 });
  });

  it("refuses out-of-range disk counts", () => {
    expect(() => parseOptions("hanoi", hanoiConfigSchema, { disks: 0 })).toThrow(
      "hanoi.disks: expected an integer from 1 to 24",
    );
    expect(() => parseOptions("hanoi", hanoiConfigSchema, { randomStart: "sometimes" })).toThrow("hanoi.randomStart");
  });
});
