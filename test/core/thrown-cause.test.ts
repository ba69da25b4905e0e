// What a thrown error says with its deepest cause: fetch's "fetch failed" over the socket's error, an AggregateError
// (both addresses of a host refused) by its first error, and an error with nothing under it as it is.
import { describe, expect, it } from "vitest";
import { deepestCause, thrownWithCause } from "../../src/core/errors.js";

describe("deepestCause and thrownWithCause", () => {
  it("read the deepest cause that says something", () => {
    const socket = new Error("getaddrinfo ENOTFOUND example.invalid");
    const fetchError = new TypeError("fetch failed", { cause: socket });
    const client = new Error("Connection error.", { cause: fetchError });
    expect(deepestCause(client)).toBe("getaddrinfo ENOTFOUND example.invalid");
    expect(thrownWithCause(fetchError)).toBe("fetch failed (getaddrinfo ENOTFOUND example.invalid)");
  });

  it("read an AggregateError without a message by its first error", () => {
    const both = new AggregateError(
      [new Error("connect ECONNREFUSED ::1:8000"), new Error("connect ECONNREFUSED 127.0.0.1:8000")],
      "",
    );
    expect(thrownWithCause(new TypeError("fetch failed", { cause: both }))).toBe(
      "fetch failed (connect ECONNREFUSED ::1:8000)",
    );
  });

  it("leave an error without a cause, and a thrown value, as they are", () => {
    expect(deepestCause(new Error("plain"))).toBeUndefined();
    expect(thrownWithCause(new Error("plain"))).toBe("plain");
    expect(thrownWithCause("text")).toBe("text");
  });
});
