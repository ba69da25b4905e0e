// The train config: the estimators' options are its fields (normalizeStepStd included), `turnWeight` is the one name
// of the turn-level weight, and configs written with its older names (lambda for turn, stepWeight for gigpo; every
// stored config before it holds both) read back to the weight their estimator read.
import { describe, expect, it } from "vitest";
import { encodeTrainConfig, parseTrainConfig } from "../../src/rl/train-config.js";

const base = { env: "hanoi" };

describe("parseTrainConfig", () => {
  it("reads the weight the config's estimator read under its older name", () => {
    expect(parseTrainConfig({ ...base, algo: "turn", lambda: 0.5, stepWeight: 2 }).turnWeight).toBe(0.5);
    expect(parseTrainConfig({ ...base, algo: "gigpo", lambda: 0.5, stepWeight: 2 }).turnWeight).toBe(2);
    expect(parseTrainConfig({ ...base, algo: "gigpo", lambda: 0.5 }).turnWeight).toBe(1);
    expect(parseTrainConfig({ ...base, lambda: 0.5, stepWeight: 2 }).turnWeight).toBe(1);
    expect(parseTrainConfig({ ...base, algo: "turn", turnWeight: 0.25 }).turnWeight).toBe(0.25);
  });

  it("refuses an older name next to turnWeight", () => {
    expect(() => parseTrainConfig({ ...base, algo: "turn", lambda: 0.5, turnWeight: 1 })).toThrow(/lambda: is the older name of turnWeight/);
    expect(() => parseTrainConfig({ ...base, algo: "gigpo", stepWeight: 0.5, turnWeight: 1 })).toThrow(/stepWeight: is the older name of turnWeight/);
  });

  it("stores turnWeight and normalizeStepStd, never the older names", () => {
    const config = parseTrainConfig({ ...base, algo: "gigpo", stepWeight: 0.5, normalizeStepStd: true });
    expect(config.normalizeStepStd).toBe(true);
    const stored = encodeTrainConfig(config) as Record<string, unknown>;
    expect(stored).toMatchObject({ turnWeight: 0.5, normalizeStepStd: true, gamma: 0.95, reward: "return", normalizeStd: true });
    expect(Object.keys(stored)).not.toContain("lambda");
    expect(Object.keys(stored)).not.toContain("stepWeight");
    expect(parseTrainConfig(stored)).toEqual(config);
  });
});
