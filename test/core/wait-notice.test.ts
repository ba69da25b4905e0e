// Waits that say so (wait-notice.ts): the line is built and said once the wait lasted a second, never for a wait that
// ended before, never without a listener; seconds as lines show them.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { NOTICE_AFTER_MS, secondsText, startWait } from "../../src/core/wait-notice.js";

describe("startWait", () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it("says its line once, after a second, built when it is said", () => {
    const lines: string[] = [];
    let reason = "first";
    const wait = startWait(
      (line) => lines.push(line),
      () => `waiting (${reason})`,
    );
    vi.advanceTimersByTime(NOTICE_AFTER_MS - 1);
    expect(lines).toEqual([]);
    reason = "latest";
    vi.advanceTimersByTime(1);
    expect(lines).toEqual(["waiting (latest)"]);
    vi.advanceTimersByTime(60_000);
    wait.end();
    expect(lines).toHaveLength(1);
  });

  it("says nothing for a wait that ended within the second, or without a listener", () => {
    const lines: string[] = [];
    const line = vi.fn(() => "never");
    startWait((text) => lines.push(text), line).end();
    startWait(undefined, line);
    vi.advanceTimersByTime(10_000);
    expect(lines).toEqual([]);
    expect(line).not.toHaveBeenCalled();
  });
});

describe("secondsText", () => {
  it("shows whole and fractional seconds without trailing zeros", () => {
    expect([3000, 500, 1250, 60_000, 0].map(secondsText)).toEqual(["3 s", "0.5 s", "1.25 s", "60 s", "0 s"]);
  });
});
