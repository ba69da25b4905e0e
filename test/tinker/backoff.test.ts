// The SDK 0.25.0's waits and deadline, as pure functions: 0.5 s doubled up to the cap, less up to a quarter (seeded);
// a Retry-After of up to 60 s waited as given; a request's faults in a row stopped at the deadline, the last wait cut
// to end there; progress starting a new window.
import { describe, expect, it } from "vitest";
import { createRng } from "../../src/core/rng.js";
import { formatWait } from "../../src/core/wait-notice.js";
import { afterFault, backoffWait, newFaultRun, progressed, SDK_PATIENCE } from "../../src/tinker/backoff.js";

describe("tinker backoff", () => {
  it("waits 0.5 s doubled up to 30 s, less up to a quarter, the same for the same seed", () => {
    const rng = createRng(3);
    const waits = Array.from({ length: 9 }, (_, attempt) => backoffWait(attempt, undefined, SDK_PATIENCE, rng));
    const full = [500, 1000, 2000, 4000, 8000, 16_000, 30_000, 30_000, 30_000];
    waits.forEach((wait, i) => {
      expect(wait).toBeGreaterThan(0.75 * (full[i] as number));
      expect(wait).toBeLessThanOrEqual(full[i] as number);
    });
    const again = createRng(3);
    expect(Array.from({ length: 9 }, (_, attempt) => backoffWait(attempt, undefined, SDK_PATIENCE, again))).toEqual(
      waits,
    );
  });

  it("waits a Retry-After above 0 and at most 60 s as given, and backs off otherwise", () => {
    const rng = createRng(1);
    expect(backoffWait(0, 1234, SDK_PATIENCE, rng)).toBe(1234);
    expect(backoffWait(5, 60_000, SDK_PATIENCE, rng)).toBe(60_000);
    expect(backoffWait(0, 61_000, SDK_PATIENCE, rng)).toBeLessThanOrEqual(500);
    expect(backoffWait(0, 0, SDK_PATIENCE, rng)).toBeLessThanOrEqual(500);
  });

  it("stops a request whose faults in a row reach the deadline, the last wait cut to end there", () => {
    const rng = createRng(7);
    const run = newFaultRun();
    const patience = { backoffMs: 1000, maxBackoffMs: 30_000, deadlineMs: 10_000 };
    let now = 0;
    const waits: number[] = [];
    for (;;) {
      const decision = afterFault(run, now, undefined, patience, rng);
      if (decision.action === "stop") {
        expect(decision.elapsedMs).toBeCloseTo(10_000, 6);
        break;
      }
      waits.push(decision.waitMs);
      now += decision.waitMs;
    }
    expect(waits.reduce((sum, wait) => sum + wait, 0)).toBeCloseTo(10_000, 6);
    expect(waits.length).toBeGreaterThanOrEqual(4);
    // Progress starts a new window, and the backoff again at its first wait.
    progressed(run);
    const next = afterFault(run, now + 1, undefined, patience, rng);
    expect(next).toMatchObject({ action: "wait", elapsedMs: 0 });
    expect((next as { waitMs: number }).waitMs).toBeLessThanOrEqual(1000);
    // A deadline of 0: the first fault stops the request.
    expect(afterFault(newFaultRun(), 5, undefined, { ...patience, deadlineMs: 0 }, rng)).toEqual({
      action: "stop",
      elapsedMs: 0,
    });
  });

  it("says durations as a person reads them", () => {
    expect(formatWait(850)).toBe("850 ms");
    expect(formatWait(4240)).toBe("4.2 s");
    expect(formatWait(300_000)).toBe("5 min");
    expect(formatWait(185_000)).toBe("3 min 5 s");
  });
});
