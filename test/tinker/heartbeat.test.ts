// A session's heartbeat, as the SDK keeps it: one attempt per beat (a probe, outside the retrier) every period,
// the next beat a period after the last one ended (no pile-up, however long an outage), one warning once beats have
// failed for 2 minutes and one line when they are answered again, stopped by the function it returns, none for
// period 0 (fake timers; the clock is the fake timers').
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { HEARTBEAT_WARNING_MS, startHeartbeat } from "../../src/tinker/heartbeat.js";
import { fakeClient } from "./fake-client.js";

beforeEach(() => void vi.useFakeTimers());
afterEach(() => void vi.useRealTimers());

describe("startHeartbeat", () => {
  it("beats every period with one attempt each, a failed beat leaving the next one to try", async () => {
    let calls = 0;
    const client = fakeClient(() => {
      calls++;
      if (calls === 1) throw new Error("503");
      return {};
    });
    const stop = startHeartbeat(client, "session_1", 1000, Date.now);
    await vi.advanceTimersByTimeAsync(3500);
    expect(client.requests.map((request) => `${request.method} ${request.path}`)).toEqual(
      Array(3).fill("PROBE /api/v1/session_heartbeat"),
    );
    expect(client.requests[0]?.body).toEqual({ session_id: "session_1", type: "session_heartbeat" });
    stop();
    await vi.advanceTimersByTimeAsync(5000);
    expect(client.requests).toHaveLength(3);
  });

  it("never piles up: a beat that hangs holds back the next one", async () => {
    let release: () => void = () => undefined;
    const client = fakeClient(() => new Promise<void>((resolve) => (release = resolve)));
    const stop = startHeartbeat(client, "session_1", 10_000, Date.now);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(client.requests).toHaveLength(1);
    release();
    await vi.advanceTimersByTimeAsync(10_000);
    expect(client.requests).toHaveLength(2);
    stop();
  });

  it("warns once after 2 minutes of failed beats, and says once when they are answered again", async () => {
    let down = true;
    const client = fakeClient(() => {
      if (down) throw new Error("connect ECONNREFUSED");
      return {};
    });
    const stop = startHeartbeat(client, "session_1", 10_000, Date.now);
    await vi.advanceTimersByTimeAsync(HEARTBEAT_WARNING_MS + 5 * 60_000);
    expect(client.requests.length).toBeGreaterThanOrEqual(40);
    expect(client.notices).toHaveLength(1);
    expect(client.notices[0]!.message).toMatch(
      /^tinker: session session_1's heartbeat has failed for 2 min 10 s \(connect ECONNREFUSED\)/,
    );
    down = false;
    await vi.advanceTimersByTimeAsync(20_000);
    expect(client.notices.map((notice) => notice.message)).toEqual([
      client.notices[0]!.message,
      "tinker: session session_1's heartbeat is answered again",
    ]);
    stop();
  });

  it("does not beat with period 0", async () => {
    const client = fakeClient(() => ({}));
    startHeartbeat(client, "session_1", 0)();
    await vi.advanceTimersByTimeAsync(60_000);
    expect(client.requests).toHaveLength(0);
  });
});
