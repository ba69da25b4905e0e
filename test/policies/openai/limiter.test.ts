import { describe, expect, it } from "vitest";
import { createRequestLimiter } from "../../../src/policies/openai/limiter.js";

/** A promise with its resolver, so a test decides when each piece of work ends. */
function gate(): { promise: Promise<void>; open: () => void } {
  let open = (): void => undefined;
  const promise = new Promise<void>((resolve) => (open = resolve));
  return { promise, open };
}

describe("request limiter", () => {
  it("never runs more than `concurrency` at once, and starts waiting work in order as slots free", async () => {
    const limiter = createRequestLimiter({ concurrency: 2, rpm: 0, now: () => 0, sleep: async () => undefined });
    const gates = [gate(), gate(), gate(), gate()];
    const starts = [gate(), gate(), gate(), gate()];
    const started: number[] = [];
    const runs = gates.map((g, i) =>
      limiter.run(async () => {
        started.push(i);
        starts[i]?.open();
        await g.promise;
        return i;
      }),
    );
    await Promise.all([starts[0]?.promise, starts[1]?.promise]);
    // Every pending callback runs before the next macrotask: work 2 and 3 stay queued while 0 and 1 hold the slots.
    await new Promise((resolve) => setImmediate(resolve));
    expect(started).toEqual([0, 1]);
    expect(limiter.inFlight()).toBe(2);
    gates[1]?.open();
    await starts[2]?.promise;
    expect(started).toEqual([0, 1, 2]);
    gates.forEach((g) => g.open());
    expect(await Promise.all(runs)).toEqual([0, 1, 2, 3]);
    expect(limiter.peak()).toBe(2);
    expect(limiter.inFlight()).toBe(0);
  });

  it("starts at most `rpm` requests in any minute, sleeping until the oldest start leaves the window", async () => {
    let clock = 1_000;
    const sleeps: number[] = [];
    const limiter = createRequestLimiter({
      concurrency: 10,
      rpm: 3,
      now: () => clock,
      sleep: async (ms) => {
        sleeps.push(ms);
        clock += ms;
      },
    });
    const startTimes: number[] = [];
    for (let i = 0; i < 7; i++) {
      await limiter.run(async () => void startTimes.push(clock));
      clock += 10;
    }
    expect(startTimes).toEqual([1000, 1010, 1020, 61000, 61010, 61020, 121000]);
    expect(sleeps).toEqual([59970, 59970]);
  });

  it("gives up waiting for a slot when the signal aborts", async () => {
    const limiter = createRequestLimiter({ concurrency: 1, rpm: 0, now: () => 0, sleep: async () => undefined });
    const busy = gate();
    const first = limiter.run(() => busy.promise);
    const controller = new AbortController();
    const second = limiter.run(async () => "never", controller.signal);
    controller.abort();
    await expect(second).rejects.toThrow(/aborted while waiting/);
    busy.open();
    await first;
    expect(await limiter.run(async () => "free")).toBe("free");
  });
});
