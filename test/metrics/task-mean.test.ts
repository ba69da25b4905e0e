import { describe, expect, it } from "vitest";
import { addRatio, ratioEstimate, taskMean, type TaskRatios } from "../../src/metrics/task-mean.js";

describe("taskMean", () => {
  it("weighs every task the same, whatever its number of observations", () => {
    const ratios: TaskRatios = new Map();
    addRatio(ratios, 0, 1, 1);
    addRatio(ratios, 1, 0, 9);
    const estimate = ratioEstimate(ratios, { bootstrap: 0 });
    expect(estimate.value).toBe(0.5);
    expect(estimate).toMatchObject({ tasks: 2, n: 10 });
    expect(estimate.low).toBeNaN();
  });

  it("gives seeded intervals that contain the mean, collapse for one task and are NaN without tasks", () => {
    const values = new Map(Array.from({ length: 30 }, (_, task) => [task, (task % 7) / 6] as const));
    const a = taskMean(values, 30, { bootstrap: 400, seed: 5 });
    expect(taskMean(values, 30, { bootstrap: 400, seed: 5 })).toEqual(a);
    expect(taskMean(values, 30, { bootstrap: 400, seed: 6 })).not.toEqual(a);
    expect(a.low).toBeLessThan(a.value);
    expect(a.high).toBeGreaterThan(a.value);
    expect(taskMean(new Map([[3, 0.25]]), 1, { bootstrap: 100 })).toMatchObject({
      value: 0.25,
      low: 0.25,
      high: 0.25,
      tasks: 1,
    });
    const none = taskMean(new Map(), 0);
    expect(none.value).toBeNaN();
    expect(none.tasks).toBe(0);
  });

  it("does not depend on the order tasks were added in", () => {
    const forward = new Map([
      [0, 0.1],
      [1, 0.9],
      [2, 0.4],
    ]);
    const backward = new Map([
      [2, 0.4],
      [1, 0.9],
      [0, 0.1],
    ]);
    expect(taskMean(forward, 3, { bootstrap: 200, seed: 1 })).toEqual(
      taskMean(backward, 3, { bootstrap: 200, seed: 1 }),
    );
  });
});
