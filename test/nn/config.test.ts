import { describe, expect, it } from "vitest";
import { parseConfig } from "../../src/core/config.js";
import { ConfigError } from "../../src/core/errors.js";
import {
  MODEL_NUMBER_KEYS,
  modelConfigField,
  modelConfigProblem,
  referenceConfig,
  resolveConfig,
} from "../../src/nn/config.js";

describe("model config", () => {
  it("fills missing fields from the reference and keeps the ones given", () => {
    expect(resolveConfig({ layers: 2 })).toEqual({ ...referenceConfig, layers: 2 });
    expect(resolveConfig({ tiedEmbeddings: true }).tiedEmbeddings).toBe(true);
  });

  it("refuses a key that is not a field of the config, naming it and the known ones, instead of ignoring it", () => {
    expect(() => resolveConfig({ unknownKey: 1 } as never)).toThrow(
      new ConfigError(
        "model.unknownKey",
        `unknown model config key (known: ${Object.keys(referenceConfig).join(", ")})`,
      ),
    );
    expect(() => resolveConfig("garbage" as never)).toThrow(
      /^model: expected an object of model config fields, got "garbage"/,
    );
    expect(() => resolveConfig(null as never)).toThrow(/^model: expected an object/);
  });

  it("says what is wrong with overrides: an unknown or non-numeric key, or a bad value, with its key", () => {
    expect(MODEL_NUMBER_KEYS).toEqual([
      "vocabSize",
      "contextLength",
      "layers",
      "dModel",
      "heads",
      "hiddenSize",
      "ropeTheta",
      "normEps",
    ]);
    expect(modelConfigProblem({ layers: 2, dModel: 64 })).toBeUndefined();
    expect(modelConfigProblem({ unknownKey: 1 })).toEqual({
      key: "unknownKey",
      reason: `unknown model config key (known: ${MODEL_NUMBER_KEYS.join(", ")})`,
    });
    expect(modelConfigProblem({ tiedEmbeddings: 1 })?.key).toBe("tiedEmbeddings");
    expect(modelConfigProblem({ layers: 0 })).toEqual({ key: "layers", reason: "must be a positive integer, got 0" });
    expect(modelConfigProblem({ heads: 3 })).toEqual({
      key: "heads",
      reason: "dModel 128 is not divisible by heads 3",
    });
  });

  it("is checked when a config holding it is parsed, naming the key under the field", () => {
    const schema = modelConfigField();
    expect(parseConfig(schema, { layers: 2 })).toEqual({ layers: 2 });
    expect(() => parseConfig(schema, { layers: 2, unknownKey: 1 })).toThrow(
      /^unknownKey: unknown model config key \(known: vocabSize, /,
    );
    expect(() => parseConfig(schema, { layers: 1.5 })).toThrow(/^layers: must be a positive integer, got 1.5/);
  });
});
