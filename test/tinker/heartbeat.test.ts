// A session's heartbeat: a beat every period (fake timers), failures ignored, stopped by the function it returns,
// and none at all for period 0.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { startHeartbeat } from "../../src/tinker/heartbeat.js";
import { fakeClient } from "./fake-client.js";

beforeEach(() => void vi.useFakeTimers());
afterEach(() => void vi.useRealTimers());

describe("startHeartbeat", () => {
  it("beats every period until stopped, a failed beat leaving the next one to try", async () => {
    let calls = 0;
    const client = fakeClient(() => {
      calls++;
      if (calls === 1) throw new Error("503");
      return {};
    });
    const stop = startHeartbeat(client, "session_1", 1000);
    await vi.advanceTimersByTimeAsync(3500);
    expect(client.requests.map((request) => request.path)).toEqual(Array(3).fill("/api/v1/session_heartbeat"));
    expect(client.requests[0]?.body).toEqual({ session_id: "session_1", type: "session_heartbeat" });
    stop();
    await vi.advanceTimersByTimeAsync(5000);
    expect(client.requests).toHaveLength(3);
  });

  it("does not beat with period 0", async () => {
    const client = fakeClient(() => ({}));
    startHeartbeat(client, "session_1", 0)();
    await vi.advanceTimersByTimeAsync(60_000);
    expect(client.requests).toHaveLength(0);
  });
});
