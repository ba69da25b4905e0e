// The relative view of a paired comparison, on hand-built per-task values.
import { describe, expect, it } from "vitest";
import { relativeGain } from "../../src/metrics/relative-gain.js";

const perTask = (values: readonly number[]): Map<number, number> => new Map(values.map((value, task) => [task, value]));

describe("relativeGain", () => {
  it("is the ratio of means minus one on the shared tasks, not a mean of per-task ratios", () => {
    // b = 0 on half the tasks: per-task ratios would be infinite there; the ratio of means is 0.6 / 0.2 - 1 = 2.
    const result = relativeGain(perTask([0.8, 0.4, 0.6, 0.6]), perTask([0.4, 0, 0.4, 0]), { bootstrap: 300, seed: 1 });
    expect(result.value).toBeCloseTo(2, 12);
    expect(result.low as number).toBeLessThanOrEqual(2);
    expect(result.high as number).toBeGreaterThanOrEqual(2);
    expect(result.tasks).toBe(4);
  });

  it("collapses its interval when every task gains by the same factor", () => {
    const b = [0.1, 0.2, 0.3, 0.4];
    const result = relativeGain(perTask(b.map((v) => v * 1.5)), perTask(b), { bootstrap: 300, seed: 3 });
    expect(result.value).toBeCloseTo(0.5, 12);
    expect(result.low).toBeCloseTo(0.5, 12);
    expect(result.high).toBeCloseTo(0.5, 12);
  });

  it("says nothing when the reference is zero everywhere or no task is shared", () => {
    expect(Number.isNaN(relativeGain(perTask([0.5]), perTask([0])).value)).toBe(true);
    expect(relativeGain(perTask([0.5]), new Map()).tasks).toBe(0);
  });
});
