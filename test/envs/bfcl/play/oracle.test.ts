// The ground-truth oracle: remaining steps over later turns and the calls still to make in the current one.
import { describe, expect, it } from "vitest";
import { startEpisode, stepEpisode } from "../../../../src/envs/bfcl/play/inference-loop.js";
import { bfclOracle, remainingTruthCalls } from "../../../../src/envs/bfcl/play/oracle.js";
import { formatCalls } from "../../../../src/envs/bfcl/calls/format.js";
import { ANSWER, fakeContext, toolCalls } from "../fixtures.js";

describe("bfclOracle", () => {
  it("counts remaining steps over later turns (2 with calls, 1 for empty ground truth)", () => {
    const { context, entry } = fakeContext();
    const { state } = startEpisode(context, entry("multi_turn_miss_param_0"));
    expect(bfclOracle(state)).toEqual({ optimal: ["[add(amount=2)]"], remaining: 5, value: 1 });
    // Within t steps: the same move, worth 1 only when the rest of the entry fits.
    expect(bfclOracle(state, 5)).toEqual({ optimal: ["[add(amount=2)]"], remaining: 5, value: 1 });
    expect(bfclOracle(state, 4)).toEqual({ optimal: ["[add(amount=2)]"], remaining: 5, value: 0 });
    stepEpisode(context, state, toolCalls(["add", '{"amount": 2}']));
    expect(bfclOracle(state)).toEqual({ optimal: ["[]"], remaining: 4, value: 1 });
    stepEpisode(context, state, ANSWER);
    expect(bfclOracle(state)).toEqual({ optimal: ["[]"], remaining: 3, value: 1 });
    stepEpisode(context, state, ANSWER);
    expect(bfclOracle(state)).toEqual({ optimal: ["[add(amount=3)]"], remaining: 2, value: 1 });
  });

  it("matches the ground truth's calls in order, as a prefix of what the model ran this turn", () => {
    const { context, entry } = fakeContext();
    const { state } = startEpisode(context, entry("multi_turn_base_1"));
    stepEpisode(context, state, toolCalls(["get", "{}"], ["add", '{"amount": 5}']));
    expect(formatCalls(remainingTruthCalls(state))).toBe("[add(amount=5)]");
    stepEpisode(context, state, toolCalls(["add", '{"amount": 4}']));
    expect(formatCalls(remainingTruthCalls(state))).toBe("[add(amount=5)]");
    stepEpisode(context, state, toolCalls(["add", '{"amount": 5}']));
    expect(remainingTruthCalls(state)).toEqual([]);
  });

  it("reports finished episodes", () => {
    const { context, entry } = fakeContext();
    const { state } = startEpisode(context, entry("multi_turn_long_context_0"));
    stepEpisode(context, state, ANSWER);
    expect(bfclOracle(state)).toEqual({ optimal: [], remaining: Infinity, value: 0 });
  });
});
