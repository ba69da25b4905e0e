// The train config: `backend` and `algo` are discriminated unions (each branch strict, so the other backend's or
// estimator's field is refused by the schema, naming it); `turnWeight` is the one name of the turn-level weight; a
// config stored in the older flat form (lambda for turn, stepWeight for gigpo: every flat config before turnWeight
// holds both) is read by readStoredTrainConfig only.
import { describe, expect, it } from "vitest";
import { ConfigError } from "../../src/core/errors.js";
import { encodeTrainConfig, parseTrainConfig, readStoredTrainConfig } from "../../src/rl/train-config.js";

const base = { env: "hanoi" };

function refusal(run: () => unknown): ConfigError {
  try {
    run();
  } catch (error) {
    if (error instanceof ConfigError) return error;
    throw error;
  }
  throw new Error("not refused");
}

describe("parseTrainConfig", () => {
  it("defaults to the tiny backend and grpo with its own options", () => {
    const config = parseTrainConfig(base);
    expect(config.backend).toEqual({ kind: "tiny", modelConfig: {} });
    expect(config.algo).toEqual({ name: "grpo", reward: "return", normalizeStd: true });
  });

  it("holds each estimator's options and each backend's fields, the union narrowing them", () => {
    const config = parseTrainConfig({
      ...base,
      algo: { name: "gigpo", turnWeight: 0.5, normalizeStepStd: true },
      backend: { kind: "tinker", baseModel: "m" },
    });
    expect(config.algo).toEqual({
      name: "gigpo",
      reward: "return",
      normalizeStd: true,
      gamma: 0.95,
      turnWeight: 0.5,
      normalizeStepStd: true,
    });
    expect(config.backend).toEqual({
      kind: "tinker",
      baseModel: "m",
      loraRank: 32,
      renderer: "bytes",
      groupSampling: true,
      templateOptions: {},
      toolCallFormat: "auto",
      backendLoss: "none",
    });
    if (config.backend.kind === "tinker") expect(config.backend.baseModel).toBe("m");
  });

  it("refuses the other estimator's option and the other backend's field, naming it", () => {
    expect(refusal(() => parseTrainConfig({ ...base, algo: { name: "grpo", turnWeight: 2 } })).message).toBe(
      "algo.turnWeight: is not read by --algo grpo",
    );
    expect(refusal(() => parseTrainConfig({ ...base, algo: { name: "turn", normalizeStepStd: true } })).field).toBe(
      "algo.normalizeStepStd",
    );
    expect(refusal(() => parseTrainConfig({ ...base, backend: { kind: "tiny", baseModel: "m" } })).message).toBe(
      "backend.baseModel: is not read by --backend tiny",
    );
    expect(
      refusal(() => parseTrainConfig({ ...base, backend: { kind: "tinker", baseModel: "m", init: "x" } })).message,
    ).toBe("backend.init: is not read by --backend tinker");
    expect(refusal(() => parseTrainConfig({ ...base, backend: { kind: "tinker" } })).message).toBe(
      "backend.baseModel: is required",
    );
  });

  it("refuses the older flat form with a hint", () => {
    const flat = refusal(() => parseTrainConfig({ ...base, algo: "turn", turnWeight: 0.5 }));
    expect(flat.field).toBe("algo");
    expect(flat.message).toMatch(/older flat train config[\s\S]*readStoredTrainConfig/);
    expect(refusal(() => parseTrainConfig({ ...base, baseModel: "m" })).field).toBe("baseModel");
  });

  it("stores the nested form, which reads back to the same config", () => {
    const config = parseTrainConfig({ ...base, algo: { name: "gigpo", turnWeight: 0.5, normalizeStepStd: true } });
    const stored = encodeTrainConfig(config) as Record<string, unknown>;
    expect(stored).toMatchObject({
      algo: {
        name: "gigpo",
        turnWeight: 0.5,
        normalizeStepStd: true,
        gamma: 0.95,
        reward: "return",
        normalizeStd: true,
      },
      backend: { kind: "tiny" },
    });
    expect(readStoredTrainConfig(stored)).toEqual(config);
    expect(parseTrainConfig(stored)).toEqual(config);
  });

  it("evaluates on tasks distinct by content unless evalDistinct says structure; a stored config without it reads back", () => {
    const config = parseTrainConfig({ ...base, evalDistinct: "structure", exclude: "7:20:structure" });
    expect(config.evalDistinct).toBe("structure");
    expect(config.exclude).toEqual({ seed: 7, tasks: 20, by: "structure" });
    const stored = encodeTrainConfig(config) as Record<string, unknown>;
    expect(stored).toMatchObject({ evalDistinct: "structure", exclude: { seed: 7, tasks: 20, by: "structure" } });
    expect(readStoredTrainConfig(stored)).toEqual(config);
    const { evalDistinct: _given, ...older } = encodeTrainConfig(
      parseTrainConfig({ ...base, exclude: "7:20" }),
    ) as Record<string, unknown>;
    expect(older.exclude).toEqual({ seed: 7, tasks: 20 });
    expect(readStoredTrainConfig(older)).toMatchObject({
      evalDistinct: "content",
      exclude: { seed: 7, tasks: 20, by: "content" },
    });
    expect(refusal(() => parseTrainConfig({ ...base, evalDistinct: "layout" })).message).toMatch(/^evalDistinct: /);
  });
});

describe("readStoredTrainConfig: the older flat form", () => {
  // A flat config as runs stored it: every field, defaults included, both weight names before turnWeight.
  const flat = {
    ...base,
    algo: "turn",
    lambda: 0.5,
    stepWeight: 2,
    gamma: 0.9,
    reward: "success",
    normalizeStd: true,
    normalizeStepStd: false,
    backend: "tiny",
    loraRank: 32,
    renderer: "bytes",
    groupSampling: true,
    templateOptions: {},
    toolCallFormat: "auto",
    backendLoss: "none",
    modelConfig: { layers: 1 },
    init: "base",
    steps: 3,
  };

  it("keeps what the run's backend and estimator read, drops what they never read", () => {
    const config = readStoredTrainConfig(flat);
    expect(config.algo).toEqual({ name: "turn", reward: "success", normalizeStd: true, gamma: 0.9, turnWeight: 0.5 });
    expect(config.backend).toEqual({ kind: "tiny", init: "base", modelConfig: { layers: 1 } });
    expect(config.steps).toBe(3);
  });

  it("reads the weight the config's estimator read under its older name", () => {
    expect(readStoredTrainConfig({ ...flat, algo: "gigpo" }).algo).toMatchObject({
      name: "gigpo",
      turnWeight: 2,
      normalizeStepStd: false,
    });
    expect(readStoredTrainConfig({ ...base, algo: "gigpo", lambda: 0.5 }).algo).toMatchObject({ turnWeight: 1 });
    expect(readStoredTrainConfig({ ...base, lambda: 0.5, stepWeight: 2 }).algo).toEqual({
      name: "grpo",
      reward: "return",
      normalizeStd: true,
    });
    expect(readStoredTrainConfig({ ...base, algo: "turn", turnWeight: 0.25 }).algo).toMatchObject({ turnWeight: 0.25 });
    expect(() => readStoredTrainConfig({ ...base, algo: "turn", lambda: 0.5, turnWeight: 1 })).toThrow(
      /lambda: is the older name of turnWeight/,
    );
  });

  it("reads a tinker run's fields into its backend", () => {
    const config = readStoredTrainConfig({
      ...flat,
      backend: "tinker",
      baseModel: "m",
      loraRank: 8,
      backendLoss: "ppo",
      init: undefined,
      modelConfig: {},
    });
    expect(config.backend).toEqual({
      kind: "tinker",
      baseModel: "m",
      loraRank: 8,
      renderer: "bytes",
      groupSampling: true,
      templateOptions: {},
      toolCallFormat: "auto",
      backendLoss: "ppo",
    });
  });
});

describe("the nested config's unions", () => {
  it("refuse the other estimator's or backend's field, naming it", () => {
    expect(
      refusal(() => parseTrainConfig({ env: "hanoi", algo: { name: "turn", normalizeStepStd: true } })).message,
    ).toBe("algo.normalizeStepStd: is not read by --algo turn");
    expect(refusal(() => parseTrainConfig({ env: "hanoi", backend: { kind: "tiny", loraRank: 8 } })).message).toBe(
      "backend.loraRank: is not read by --backend tiny",
    );
  });
});
