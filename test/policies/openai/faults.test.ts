import { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError } from "openai";
import { describe, expect, it } from "vitest";
import { createRng } from "../../../src/core/rng.js";
import { classifyFault, isContextLengthText, retryAfterMs, retryDelay } from "../../../src/policies/openai/faults.js";

const headers = (entries: Record<string, string>): Headers => new Headers(entries);

describe("faults", () => {
  it("retries timeouts, dropped connections, 408/409/429/5xx; ends on context length; gives up on the rest", () => {
    const now = Date.parse("2026-01-01T00:00:00Z");
    expect(classifyFault(new APIConnectionTimeoutError(), now).kind).toBe("retry");
    expect(classifyFault(new APIConnectionError({ message: "socket hang up" }), now).kind).toBe("retry");
    for (const status of [408, 409, 429, 500, 502, 503])
      expect(
        classifyFault(APIError.generate(status, { message: "x" }, "x", headers({})), now).kind,
        String(status),
      ).toBe("retry");
    expect(classifyFault(APIError.generate(429, {}, "slow down", headers({ "retry-after": "2" })), now)).toEqual({
      kind: "retry",
      reason: "429 slow down",
      retryAfterMs: 2000,
    });
    const vllm = APIError.generate(
      400,
      {
        error: {
          message: "This model's maximum context length is 4096 tokens. However, you requested 5000 tokens.",
          type: "BadRequestError",
        },
      },
      undefined,
      headers({}),
    );
    expect(classifyFault(vllm, now).kind).toBe("context_length");
    expect(
      classifyFault(
        APIError.generate(
          400,
          { error: { message: "the request exceeds the available context size", type: "exceed_context_size_error" } },
          undefined,
          headers({}),
        ),
        now,
      ).kind,
    ).toBe("context_length");
    expect(
      classifyFault(APIError.generate(400, { error: { message: "unknown field foo" } }, undefined, headers({})), now)
        .kind,
    ).toBe("fatal");
    expect(
      classifyFault(APIError.generate(401, { error: { message: "bad key" } }, undefined, headers({})), now).kind,
    ).toBe("fatal");
    expect(classifyFault(new APIUserAbortError(), now).kind).toBe("fatal");
    expect(classifyFault(new SyntaxError("Unexpected token < in JSON"), now).kind).toBe("retry");
    expect(isContextLengthText("Requested token count exceeds the model's maximum context length")).toBe(true);
    expect(isContextLengthText("invalid tool choice")).toBe(false);
  });

  it("reads Retry-After in seconds, as a date, and retry-after-ms", () => {
    const now = Date.parse("2026-01-01T00:00:00Z");
    expect(retryAfterMs(headers({ "retry-after": "3" }), now)).toBe(3000);
    expect(retryAfterMs(headers({ "retry-after": "Thu, 01 Jan 2026 00:00:05 GMT" }), now)).toBe(5000);
    expect(retryAfterMs(headers({ "retry-after-ms": "250", "retry-after": "9" }), now)).toBe(250);
    expect(retryAfterMs(headers({ "retry-after": "soon" }), now)).toBeUndefined();
    expect(retryAfterMs(undefined, now)).toBeUndefined();
  });

  it("waits Retry-After up to the cap, else a doubling backoff with seeded jitter in [half, full]", () => {
    const settings = { backoffMs: 100, maxBackoffMs: 1000 };
    expect(retryDelay(0, { retryAfterMs: 400 }, settings, createRng(1))).toBe(400);
    expect(retryDelay(0, { retryAfterMs: 60_000 }, settings, createRng(1))).toBe(1000);
    const rng = createRng(7);
    const delays = [0, 1, 2, 3, 4, 5].map((attempt) => retryDelay(attempt, {}, settings, rng));
    [100, 200, 400, 800, 1000, 1000].forEach((full, attempt) => {
      expect(delays[attempt]).toBeGreaterThanOrEqual(full / 2);
      expect(delays[attempt]).toBeLessThanOrEqual(full);
    });
    const again = createRng(7);
    expect([0, 1, 2, 3, 4, 5].map((attempt) => retryDelay(attempt, {}, settings, again))).toEqual(delays);
  });
});
