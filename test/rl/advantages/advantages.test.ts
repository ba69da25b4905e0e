// Advantage estimators against hand-computed values, including ties, singleton groups and all-equal rewards.
import { describe, expect, it } from "vitest";
import {
  computeAdvantages,
  discountedReturns,
  gigpoAdvantages,
  grpoAdvantages,
  parseAdvantageEstimator,
  progressRewards,
  sampleStd,
  turnAdvantages,
  type GroupEpisode,
} from "../../../src/rl/advantages/index.js";

function episode(
  ret: number,
  turns: { reward?: number; progress?: number; key?: string }[],
  initialProgress = 0,
  success = ret > 0,
): GroupEpisode {
  return {
    return: ret,
    success,
    initialProgress,
    turns: turns.map((turn) => ({ reward: turn.reward ?? 0, progress: turn.progress ?? 0, stateKey: turn.key ?? "s" })),
  };
}

describe("grpo", () => {
  it("normalises trajectory rewards by the group mean and sample std, on every turn", () => {
    const group = [episode(1, [{}, {}]), episode(0, [{}]), episode(0, [{}, {}, {}])];
    // mean 1/3, sample std sqrt(((2/3)^2 + 2 (1/3)^2) / 2) = sqrt(1/3)
    const std = Math.sqrt(1 / 3);
    const advantages = grpoAdvantages(group);
    expect(advantages[0]).toEqual([2 / 3 / (std + 1e-6), 2 / 3 / (std + 1e-6)]);
    expect(advantages[1]?.[0]).toBeCloseTo(-(1 / 3) / std, 5);
    expect(advantages[2]).toHaveLength(3);
    expect(sampleStd([1, 0, 0])).toBeCloseTo(std, 12);
  });

  it("gives zero for singleton groups and all-equal rewards, and supports no-std and success rewards", () => {
    expect(grpoAdvantages([episode(5, [{}, {}])])).toEqual([[0, 0]]);
    expect(grpoAdvantages([episode(2, [{}]), episode(2, [{}])])).toEqual([[0], [0]]);
    expect(grpoAdvantages([episode(3, [{}]), episode(1, [{}])], { normalizeStd: false })).toEqual([[1], [-1]]);
    const bySuccess = grpoAdvantages([episode(-0.5, [{}], 0, true), episode(-0.3, [{}], 0, false)], {
      reward: "success",
      normalizeStd: false,
    });
    expect(bySuccess).toEqual([[0.5], [-0.5]]);
  });
});

describe("turn-level (process supervision)", () => {
  it("derives turn rewards from progress changes and discounts them", () => {
    expect(progressRewards(episode(0, [{ progress: -3 }, { progress: -2 }, { progress: -2 }], -4))).toEqual([1, 1, 0]);
    expect(discountedReturns([1, 1, 0], 0.5)).toEqual([1.5, 1, 0]);
  });

  it("combines the trajectory advantage with per-turn-index normalised turn returns", () => {
    const a = episode(1, [{ progress: 1 }, { progress: 2 }]);
    const b = episode(0, [{ progress: 0 }, { progress: 0 }]);
    const c = episode(0, [{ progress: 1 }]);
    const result = turnAdvantages([a, b, c], { gamma: 1, turnWeight: 0.5, normalizeStd: false });
    // trajectory: mean 1/3 -> a 2/3, b -1/3, c -1/3
    // turn 0 returns: a 2, b 0, c 1 -> mean 1 -> a 1, b -1, c 0;  turn 1: a 1, b 0 -> mean 0.5 -> a 0.5, b -0.5
    expect(result[0]?.[0]).toBeCloseTo(2 / 3 + 0.5 * 1, 12);
    expect(result[0]?.[1]).toBeCloseTo(2 / 3 + 0.5 * 0.5, 12);
    expect(result[1]?.[0]).toBeCloseTo(-1 / 3 - 0.5, 12);
    expect(result[1]?.[1]).toBeCloseTo(-1 / 3 - 0.25, 12);
    expect(result[2]?.[0]).toBeCloseTo(-1 / 3, 12);
  });

  it("gives the turn term zero at turn indices reached by one episode only", () => {
    const result = turnAdvantages([episode(0, [{ progress: 1 }, { progress: 5 }]), episode(0, [{ progress: 1 }])], {
      gamma: 1,
    });
    // turn 0: returns 5 and 1 (mean 3, std 2 sqrt 2); turn 1: only the first episode -> 0
    expect(result[0]?.[0]).toBeCloseTo(2 / (2 * Math.SQRT2), 5);
    expect(result[1]?.[0]).toBeCloseTo(-2 / (2 * Math.SQRT2), 5);
    expect(result[0]?.[1]).toBe(0);
  });
});

describe("gigpo", () => {
  it("adds step advantages within anchor groups of identical states", () => {
    const a = episode(1, [
      { key: "s0", reward: 0 },
      { key: "s1", reward: 1 },
    ]);
    const b = episode(0, [
      { key: "s0", reward: 0 },
      { key: "s2", reward: 0 },
    ]);
    const result = gigpoAdvantages([a, b], { gamma: 0.5, normalizeStd: false });
    // episode: mean 0.5 -> a +0.5, b -0.5; returns: a [0.5, 1], b [0, 0]; anchor s0 = {0.5, 0} mean 0.25
    expect(result[0]).toEqual([0.5 + 0.25, 0.5 + 0]);
    expect(result[1]).toEqual([-0.5 - 0.25, -0.5 + 0]);
  });

  it("counts repeated visits of a state within one episode in its anchor group", () => {
    const loop = episode(0, [
      { key: "x", reward: 0 },
      { key: "x", reward: 1 },
    ]);
    const result = gigpoAdvantages([loop], { gamma: 1 });
    // singleton episode group: A^E = 0; anchor x = {1, 1}: step advantages 0
    expect(result).toEqual([[0, 0]]);
    expect(computeAdvantages("gigpo", [loop], { gamma: 1 })).toEqual(result);
  });

  it("is chosen by name, refusing unknown names at config time", () => {
    expect(parseAdvantageEstimator("turn")).toBe("turn");
    expect(() => parseAdvantageEstimator("ppo")).toThrow(/algo: unknown advantage estimator "ppo"/);
  });
});
