// The credential of a Tinker request: a JWT's expiry read from its claims, fetched again 60 s before it ends,
// and the configs this client cannot meet refused before any request, naming what to do.
import { describe, expect, it } from "vitest";
import { authProblem, jwtExpiryMs, jwtStale } from "../../src/tinker/auth.js";
import { clientConfigSchema } from "../../src/tinker/wire.js";

const jwt = (claims: unknown): string =>
  `eyJhbGciOiJub25lIn0.${Buffer.from(JSON.stringify(claims)).toString("base64url")}.sig`;

describe("tinker auth", () => {
  it("reads a JWT's exp claim and calls it stale with 60 s or less left", () => {
    const token = jwt({ exp: 1_000 });
    expect(jwtExpiryMs(token)).toBe(1_000_000);
    expect(jwtStale(token, 939_999)).toBe(false);
    expect(jwtStale(token, 940_000)).toBe(true);
    // No expiry, or not a JWT: kept as it is.
    expect(jwtExpiryMs(jwt({ sub: "x" }))).toBeUndefined();
    expect(jwtStale("tml-plain-key", 0)).toBe(false);
  });

  it("refuses an exchange without a key, and a credential command it would have to run", () => {
    const exchange = clientConfigSchema.parse({ pjwt_auth_enabled: true });
    expect(authProblem(clientConfigSchema.parse({}), undefined)).toBeUndefined();
    expect(authProblem(exchange, "tml-x")).toBeUndefined();
    expect(authProblem(exchange, undefined)?.message).toMatch(/pjwt_auth_enabled/);
    const command = clientConfigSchema.parse({ pjwt_auth_enabled: true, credential_default_source: "credential_cmd" });
    expect(authProblem(command, "tml-x")?.message).toMatch(/TINKER_CREDENTIAL_CMD/);
    expect(authProblem(command, jwt({ exp: 1 }))).toBeUndefined();
  });
});
