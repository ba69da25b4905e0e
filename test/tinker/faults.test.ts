// What a failed Tinker exchange means: retry, a proxy's bare 400, poll again, pause, resubmit, or give up (the SDK
// 0.25.0's rules).
import { describe, expect, it } from "vitest";
import {
  billingPause,
  classifyStatus,
  classifyThrown,
  errorDetail,
  type BillingPause,
} from "../../src/tinker/faults.js";

describe("tinker faults", () => {
  it("classifies statuses by endpoint", () => {
    const poll = "/api/v1/retrieve_future";
    expect(classifyStatus(408, poll, "").kind).toBe("pending");
    expect(classifyStatus(410, poll, "").kind).toBe("resubmit");
    expect(classifyStatus(400, poll, "bad loss")).toEqual({
      kind: "bad-request",
      reason: "/api/v1/retrieve_future answered 400: bad loss",
    });
    expect(classifyStatus(408, "/api/v1/asample", "").kind).toBe("retry");
    for (const status of [409, 425, 429, 500, 502, 503])
      expect(classifyStatus(status, "/api/v1/forward_backward", "").kind).toBe("retry");
    for (const endpoint of [poll, "/api/v1/asample"])
      expect(classifyStatus(402, endpoint, "billing").kind).toBe("pause");
    for (const status of [400, 401, 403, 404, 410, 422])
      expect(classifyStatus(status, "/api/v1/forward_backward", "refused").kind).toBe("fatal");
    // A 400 with an empty body is a proxy's, anywhere (the SDK resets the connection and retries it).
    for (const endpoint of [poll, "/api/v1/forward_backward", "/api/v1/create_session"])
      expect(classifyStatus(400, endpoint, "")).toEqual({
        kind: "proxy-400",
        reason: `${endpoint} answered 400 with an empty body`,
      });
    expect(classifyStatus(404, "/api/v1/optim_step", "Model not found")).toEqual({
      kind: "fatal",
      reason: "/api/v1/optim_step answered 404: Model not found",
    });
  });

  it("retries lost connections, polls again after a poll timeout, and stops on our own signal", () => {
    expect(classifyThrown(new TypeError("fetch failed"), "/api/v1/forward_backward", false).kind).toBe("retry");
    // What failed under fetch's bare message is said with it.
    const refused = new TypeError("fetch failed", { cause: new Error("connect ECONNREFUSED 127.0.0.1:1") });
    expect(classifyThrown(refused, "/api/v1/forward_backward", false)).toEqual({
      kind: "retry",
      reason: "/api/v1/forward_backward: fetch failed (connect ECONNREFUSED 127.0.0.1:1)",
    });
    const timeout = new DOMException("timed out", "TimeoutError");
    expect(classifyThrown(timeout, "/api/v1/retrieve_future", false).kind).toBe("pending");
    expect(classifyThrown(timeout, "/api/v1/forward_backward", false).kind).toBe("retry");
    expect(classifyThrown(new Error("aborted"), "/api/v1/forward_backward", true).kind).toBe("fatal");
  });

  it("pauses on 402 until one incident passes the limit, says so once a minute, and starts a new incident after 5 quiet minutes", () => {
    const pause: BillingPause = { first: undefined, lastNotice: undefined, last: undefined };
    const at = (seconds: number) => billingPause(pause, seconds * 1000, 600_000);
    expect(at(0)).toEqual({ action: "wait", notice: true });
    expect(at(5)).toEqual({ action: "wait", notice: false });
    const notices: number[] = [];
    for (let seconds = 10; seconds <= 600; seconds += 5)
      if ((at(seconds) as { notice: boolean }).notice) notices.push(seconds);
    expect(notices).toEqual([65, 130, 195, 260, 325, 390, 455, 520, 585]);
    expect(at(605)).toEqual({ action: "stop", pausedMs: 605_000 });
    // 5 minutes and more without a 402: a new incident, the clock starts again.
    expect(at(1000)).toEqual({ action: "wait", notice: true });
    expect(at(1300)).toEqual({ action: "wait", notice: true });
  });

  it("reads the message of FastAPI, hosted and plain error bodies", () => {
    expect(errorDetail('{"detail": "Model not found"}')).toBe("Model not found");
    expect(errorDetail('{"error": "bad", "category": "user"}')).toBe("bad");
    expect(errorDetail('{"detail": [{"loc": ["body"], "msg": "x"}]}')).toBe('[{"loc":["body"],"msg":"x"}]');
    expect(errorDetail("Bad Gateway")).toBe("Bad Gateway");
  });
});
