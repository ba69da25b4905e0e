// What a failed Tinker exchange means: retry, poll again, resubmit, or give up.
import { describe, expect, it } from "vitest";
import { classifyStatus, classifyThrown, errorDetail } from "../../../src/rl/tinker/faults.js";

describe("tinker faults", () => {
  it("classifies statuses by endpoint", () => {
    const poll = "/api/v1/retrieve_future";
    expect(classifyStatus(408, poll, "").kind).toBe("pending");
    expect(classifyStatus(410, poll, "").kind).toBe("resubmit");
    expect(classifyStatus(400, poll, "bad loss").kind).toBe("fatal");
    expect(classifyStatus(408, "/api/v1/asample", "").kind).toBe("retry");
    for (const status of [425, 429, 500, 502, 503]) expect(classifyStatus(status, "/api/v1/forward", "").kind).toBe("retry");
    for (const status of [400, 401, 403, 404, 409, 410, 422]) expect(classifyStatus(status, "/api/v1/forward", "").kind).toBe("fatal");
    expect(classifyStatus(404, "/api/v1/forward", "Model not found")).toEqual({ kind: "fatal", reason: "/api/v1/forward answered 404: Model not found" });
  });

  it("retries lost connections, polls again after a poll timeout, and stops on our own signal", () => {
    expect(classifyThrown(new TypeError("fetch failed"), "/api/v1/forward", false).kind).toBe("retry");
    const timeout = new DOMException("timed out", "TimeoutError");
    expect(classifyThrown(timeout, "/api/v1/retrieve_future", false).kind).toBe("pending");
    expect(classifyThrown(timeout, "/api/v1/forward", false).kind).toBe("retry");
    expect(classifyThrown(new Error("aborted"), "/api/v1/forward", true).kind).toBe("fatal");
  });

  it("reads the message of FastAPI, hosted and plain error bodies", () => {
    expect(errorDetail('{"detail": "Model not found"}')).toBe("Model not found");
    expect(errorDetail('{"error": "bad", "category": "user"}')).toBe("bad");
    expect(errorDetail('{"detail": [{"loc": ["body"], "msg": "x"}]}')).toBe('[{"loc":["body"],"msg":"x"}]');
    expect(errorDetail("Bad Gateway")).toBe("Bad Gateway");
  });
});
