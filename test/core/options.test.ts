import { describe, expect, it } from "vitest";
import { z } from "zod";
import { ConfigError } from "../../src/core/errors.js";
import {
  booleanOption,
  choiceOption,
  describeOptions,
  formatOptionsHelp,
  integerOption,
  numberOption,
  parseOptions,
} from "../../src/core/options.js";

const schema = z.object({
  count: integerOption(1, 6, 2, "How many."),
  rate: numberOption(0, 1, 0.5, "How often."),
  flag: booleanOption(false, "Whether."),
  pick: choiceOption(["a", "b"], "Which."),
});

function errorOf(run: () => unknown): ConfigError {
  try {
    run();
  } catch (error) {
    if (error instanceof ConfigError) return error;
  }
  throw new Error("expected a ConfigError");
}

describe("parseOptions", () => {
  it("fills defaults and reads typed values or strings", () => {
    expect(parseOptions("demo", schema, undefined)).toEqual({ count: 2, rate: 0.5, flag: false, pick: null });
    expect(parseOptions("demo", schema, { count: "4", rate: " 0.25 ", flag: "true", pick: "b" })).toEqual({
      count: 4,
      rate: 0.25,
      flag: true,
      pick: "b",
    });
    expect(parseOptions("demo", schema, { flag: "no", pick: "none" })).toMatchObject({ flag: false, pick: null });
  });

  it("names the option and the expectation in errors", () => {
    expect(errorOf(() => parseOptions("demo", schema, { count: 0 })).message).toBe(
      "demo.count: expected an integer from 1 to 6",
    );
    expect(errorOf(() => parseOptions("demo", schema, { count: 2.5 })).field).toBe("demo.count");
    expect(errorOf(() => parseOptions("demo", schema, { count: "many" })).field).toBe("demo.count");
    expect(errorOf(() => parseOptions("demo", schema, { rate: 2 })).message).toBe(
      "demo.rate: expected a number from 0 to 1",
    );
    expect(errorOf(() => parseOptions("demo", schema, { flag: "maybe" })).message).toBe(
      "demo.flag: expected true or false",
    );
    expect(errorOf(() => parseOptions("demo", schema, { pick: "c" })).message).toContain("expected one of a, b");
    const unknown = errorOf(() => parseOptions("demo", schema, { colour: 1 }));
    expect(unknown.field).toBe("demo.colour");
    expect(unknown.message).toContain("count, rate, flag, pick");
    expect(errorOf(() => parseOptions("demo", schema, [1])).field).toBe("demo");
  });

  it("returns a frozen config", () => {
    expect(Object.isFrozen(parseOptions("demo", schema, {}))).toBe(true);
  });
});

describe("option help", () => {
  it("lists every option with its description and default", () => {
    const options = describeOptions(schema);
    expect(options).toEqual([
      { name: "count", description: "How many.", defaultValue: 2 },
      { name: "rate", description: "How often.", defaultValue: 0.5 },
      { name: "flag", description: "Whether.", defaultValue: false },
      { name: "pick", description: "Which.", defaultValue: null },
    ]);
    const text = formatOptionsHelp("demo", options);
    expect(text.split("\n")).toHaveLength(5);
    expect(text).toMatch(/count\s+default 2\s+How many\./);
  });
});
