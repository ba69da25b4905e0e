import { describe, expect, it } from "vitest";
import { runPool } from "../../src/agent/pool.js";
import { StoppedError } from "../../src/core/errors.js";

describe("runPool", () => {
  it("ends without error when the signal stops it; jobs abandoned by the stop are not failures", async () => {
    const controller = new AbortController();
    const started: number[] = [];
    await runPool(
      [1, 2, 3, 4, 5, 6],
      2,
      async (job) => {
        started.push(job);
        if (job === 3) controller.abort();
        if (controller.signal.aborted) throw new StoppedError();
      },
      controller.signal,
    );
    // Job 3 stops the pool: no job starts after it, and its StoppedError is not a failure.
    expect(started).toEqual([1, 2, 3]);
  });

  it("reports a job planned badly (the iterator throws) after the jobs in flight settle", async () => {
    const settled: number[] = [];
    let release!: () => void;
    const slow = new Promise<void>((resolve) => (release = resolve));
    function* jobs(): Generator<number> {
      yield 1;
      yield 2;
      release();
      throw new Error("cannot plan job 3");
    }
    await expect(
      runPool(jobs(), 2, async (job) => {
        if (job === 1) await slow;
        settled.push(job);
      }),
    ).rejects.toThrow(/cannot plan job 3/);
    expect(settled.sort()).toEqual([1, 2]);
  });
});
