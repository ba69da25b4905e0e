import { describe, expect, it } from "vitest";
import { StoppedError } from "../../src/core/errors.js";
import { stopPoints } from "../../src/core/stop-points.js";

describe("stop points", () => {
  it("let a stop signal from the event loop end busy work that never waits on a real event", async () => {
    const controller = new AbortController();
    // The abort comes from a macrotask, as a signal handler does: awaiting resolved promises alone never lets it run.
    setImmediate(() => controller.abort());
    const stopPoint = stopPoints(controller.signal, () => new StoppedError("stopped in the loop"), { everyMs: 0 });
    let items = 0;
    const loop = async (): Promise<void> => {
      for (;;) {
        items += 1;
        await stopPoint();
      }
    };
    await expect(loop()).rejects.toThrow(new StoppedError("stopped in the loop"));
    expect(items).toBeGreaterThan(0);
  });

  it("yield only once the given milliseconds of work have passed, and check the signal at every point", async () => {
    let clock = 0;
    let ran = 0;
    const seen: number[] = [];
    const controller = new AbortController();
    const stopPoint = stopPoints(controller.signal, () => new StoppedError(), { everyMs: 20, now: () => clock });
    for (const time of [5, 19, 20, 25, 39, 40]) {
      clock = time;
      setImmediate(() => void (ran += 1));
      await stopPoint();
      seen.push(ran);
    }
    // Yields at 20 (20 ms after the start) and at 40 (20 ms after that) only: each lets the waiting immediates run.
    expect(seen).toEqual([0, 0, 3, 3, 3, 6]);
    controller.abort();
    await expect(stopPoint()).rejects.toBeInstanceOf(StoppedError);
  });
});
