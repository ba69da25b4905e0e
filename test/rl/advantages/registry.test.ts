// The estimator registry: each name gives its estimator, whose function is the one the formula tests check; each
// estimator declares the options it reads, and the train config's fields are those declarations.
import { describe, expect, it } from "vitest";
import {
  ADVANTAGE_ESTIMATORS,
  advantageEstimator,
  gigpoAdvantages,
  grpoAdvantages,
  turnAdvantages,
  type GroupEpisode,
} from "../../../src/rl/advantages/index.js";
import { advantageOptionFields } from "../../../src/rl/advantages/registry.js";

function episode(ret: number, turns: { reward?: number; progress?: number; key?: string }[]): GroupEpisode {
  return {
    return: ret,
    success: ret > 0,
    initialProgress: 0,
    turns: turns.map((turn) => ({ reward: turn.reward ?? 0, progress: turn.progress ?? 0, stateKey: turn.key ?? "s" })),
  };
}

const group = [
  episode(1, [
    { key: "s0", progress: 1 },
    { key: "s1", reward: 1, progress: 2 },
  ]),
  episode(0, [{ key: "s0" }, { key: "s2" }]),
  episode(0, [{ key: "s0", progress: 1 }]),
];

describe("the advantage estimator registry", () => {
  it("gives each estimator by name, with one signature", () => {
    expect(ADVANTAGE_ESTIMATORS).toEqual(["grpo", "turn", "gigpo"]);
    const options = { gamma: 0.5, turnWeight: 0.5, normalizeStd: false };
    expect(advantageEstimator("grpo").estimate(group, options)).toEqual(grpoAdvantages(group, options));
    expect(advantageEstimator("turn").estimate(group, options)).toEqual(turnAdvantages(group, options));
    expect(advantageEstimator("gigpo").estimate(group, options)).toEqual(gigpoAdvantages(group, options));
  });

  it("lets each estimator declare its options, described with the estimators that read them", () => {
    expect(Object.keys(advantageEstimator("grpo").options)).toEqual(["reward", "normalizeStd"]);
    expect(Object.keys(advantageEstimator("turn").options)).toEqual(["reward", "normalizeStd", "gamma", "turnWeight"]);
    expect(Object.keys(advantageEstimator("gigpo").options)).toEqual([
      "reward",
      "normalizeStd",
      "gamma",
      "turnWeight",
      "normalizeStepStd",
    ]);
    expect(advantageOptionFields.reward.description).toBe("trajectory reward: env return or 1/0 success");
    expect(advantageOptionFields.gamma.description).toBe("turn, gigpo: discount over turns");
    expect(advantageOptionFields.normalizeStepStd.description).toMatch(/^gigpo: divide the step-level advantage/);
  });
});

describe("gigpo's normalizeStepStd", () => {
  it("divides the step-level advantage by its anchor group's sample std", () => {
    const a = episode(1, [
      { key: "s0", reward: 0 },
      { key: "s1", reward: 1 },
    ]);
    const b = episode(0, [
      { key: "s0", reward: 0 },
      { key: "s2", reward: 0 },
    ]);
    // returns (gamma 0.5): a [0.5, 1], b [0, 0]; anchor s0 = {0.5, 0}: mean 0.25, sample std sqrt(0.125)
    const result = gigpoAdvantages([a, b], { gamma: 0.5, normalizeStd: false, normalizeStepStd: true });
    expect(result[0]?.[0]).toBeCloseTo(0.5 + 0.25 / Math.sqrt(0.125), 5);
    expect(result[1]?.[0]).toBeCloseTo(-0.5 - 0.25 / Math.sqrt(0.125), 5);
    expect(result[0]?.[1]).toBe(0.5);
  });
});
