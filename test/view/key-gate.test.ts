// The view's API key: the key in the address once (answered with a cookie holding a digest, not the key, and a
// redirect to the address without it), then the cookie; a Bearer header; nothing else.
import { describe, expect, it } from "vitest";
import { KEY_COOKIE, keyGate } from "../../src/view/key-gate.js";

const gate = keyGate("s3cret");
const url = (path: string): URL => new URL(path, "http://127.0.0.1:8400");

describe("keyGate", () => {
  it("takes the key from the address once: a cookie with its digest, and the address without it", () => {
    const verdict = gate({}, url("/run?id=a%2Fb&key=s3cret&page=2"));
    expect(verdict.kind).toBe("remember");
    if (verdict.kind !== "remember") return;
    expect(verdict.location).toBe("/run?id=a%2Fb&page=2");
    expect(verdict.cookie).toMatch(new RegExp(`^${KEY_COOKIE}=[0-9a-f]{64}; HttpOnly; SameSite=Strict; Path=/$`));
    expect(verdict.cookie).not.toContain("s3cret");
    const cookie = verdict.cookie.split(";")[0]!;
    expect(gate({ cookie: `other=1; ${cookie}` }, url("/"))).toEqual({ kind: "allowed" });
  });

  it("allows a Bearer header with the key", () => {
    expect(gate({ authorization: "Bearer s3cret" }, url("/"))).toEqual({ kind: "allowed" });
    expect(gate({ authorization: "bearer s3cret" }, url("/"))).toEqual({ kind: "allowed" });
  });

  it("denies a missing or wrong key, a wrong cookie, and another key's cookie", () => {
    expect(gate({}, url("/"))).toEqual({ kind: "denied" });
    expect(gate({}, url("/?key=s3cre"))).toEqual({ kind: "denied" });
    expect(gate({ authorization: "Bearer nope" }, url("/"))).toEqual({ kind: "denied" });
    expect(gate({ cookie: `${KEY_COOKIE}=zz` }, url("/"))).toEqual({ kind: "denied" });
    const other = keyGate("another")({}, url("/?key=another"));
    if (other.kind !== "remember") throw new Error("expected a cookie");
    expect(gate({ cookie: other.cookie.split(";")[0]! }, url("/"))).toEqual({ kind: "denied" });
  });
});
