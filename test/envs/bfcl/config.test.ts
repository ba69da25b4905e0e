// BFCL env options: defaults (an empty dataDir for the bundled data), CLI strings, errors naming the field, help.
import { describe, expect, it } from "vitest";
import { ConfigError } from "../../../src/core/errors.js";
import { bfclConfigSchema, parseBfclConfig } from "../../../src/envs/bfcl/config.js";

describe("parseBfclConfig", () => {
  it("applies defaults and reads CLI strings", () => {
    expect(parseBfclConfig({ dataDir: "d" })).toEqual({
      dataDir: "d",
      categories: ["base", "miss_func", "miss_param", "long_context"],
      mode: "tools",
      callable: "unexcluded",
      maxStepsPerTurn: 20,
      stopOnFailure: true,
      irrelevanceCheck: false,
    });
    expect(
      parseBfclConfig({
        dataDir: "d",
        categories: "multi_turn_base, base,long_context",
        maxStepsPerTurn: "5",
        irrelevanceCheck: "yes",
        callable: "all",
      }),
    ).toMatchObject({
      categories: ["base", "long_context"],
      maxStepsPerTurn: 5,
      irrelevanceCheck: true,
      callable: "all",
    });
    expect(Object.isFrozen(parseBfclConfig({ dataDir: "d" }))).toBe(true);
    expect(parseBfclConfig({}).dataDir).toBe("");
  });

  it("names the field of every bad value", () => {
    const field = (options: unknown): string => {
      try {
        parseBfclConfig(options);
      } catch (error) {
        if (error instanceof ConfigError) return error.field;
        throw error;
      }
      return "none";
    };
    expect(field({ dataDir: "d", categories: [] })).toBe("bfcl.categories");
    expect(field({ dataDir: "d", callable: "some" })).toBe("bfcl.callable");
    expect(field({ dataDir: "d", stopOnFailure: "maybe" })).toBe("bfcl.stopOnFailure");
    expect(field({ dataDir: 3 })).toBe("bfcl.dataDir");
    expect(field({ dataDir: " " })).toBe("bfcl.dataDir");
    expect(field({ dataDir: "d", extra: 1 })).toBe("bfcl.extra");
    expect(field("tools")).toBe("bfcl");
  });

  it("describes every option and parses the empty record for help", () => {
    for (const [name, schema] of Object.entries(bfclConfigSchema.shape)) expect(schema.description, name).toBeTruthy();
    expect(bfclConfigSchema.parse({})).toMatchObject({ dataDir: "", mode: "tools" });
  });
});
