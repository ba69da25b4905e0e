import { describe, expect, it } from "vitest";
import { shortestPathAnswer, shortestPathValue } from "../../../src/envs/shared/shortest-path-answer.js";

describe("shortest-path answers", () => {
  it("are worth 1 within t turns exactly when the goal is at most t moves away, with the same moves at every horizon", () => {
    expect([3, 4, 5].map((t) => shortestPathAnswer(["Up"], 4, t))).toEqual([
      { optimal: ["Up"], remaining: 4, value: 0 },
      { optimal: ["Up"], remaining: 4, value: 1 },
      { optimal: ["Up"], remaining: 4, value: 1 },
    ]);
    expect(shortestPathAnswer([], 0, 0)).toEqual({ optimal: [], remaining: 0, value: 1 });
  });

  it("treat a missing or infinite horizon as unlimited, and an unreachable goal as worth 0 at every horizon", () => {
    expect(shortestPathValue(1_000_000)).toBe(1);
    expect(shortestPathValue(1_000_000, Infinity)).toBe(1);
    expect(shortestPathValue(Infinity)).toBe(0);
    expect(shortestPathValue(Infinity, Infinity)).toBe(0);
    expect(shortestPathValue(Infinity, 10)).toBe(0);
  });
});
