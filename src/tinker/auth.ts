// The credential a Tinker request carries in X-API-Key (pure functions). Without pjwt_auth_enabled in the
// server's client config it is the API key; with it, the SDK 0.25.0 (lib/_jwt_auth.py) exchanges the key for a
// short-lived JWT at POST /api/v1/auth/token and sends the JWT instead, fetching a new one when the cached one
// has 60 s or less left. The JWT's signature is the server's business: only its `exp` claim is read here.
import { ConfigError } from "../core/errors.js";
import type { ClientConfig } from "./wire.js";

/** A JWT is fetched again when it has this little left (the SDK's on-demand refresh). */
export const JWT_REFRESH_BEFORE_MS = 60_000;

/** The `exp` claim of a JWT in milliseconds, or undefined when it has none or is not a JWT. */
export function jwtExpiryMs(jwt: string): number | undefined {
  const payload = jwt.split(".")[1];
  if (payload === undefined) return undefined;
  try {
    const claims = JSON.parse(Buffer.from(payload, "base64url").toString("utf8")) as { exp?: unknown };
    return typeof claims.exp === "number" ? claims.exp * 1000 : undefined;
  } catch {
    return undefined;
  }
}

/** A JWT that must be fetched again at `now`: close to expiry. One without an expiry is kept. */
export function jwtStale(jwt: string, now: number): boolean {
  const expiry = jwtExpiryMs(jwt);
  return expiry !== undefined && expiry - now <= JWT_REFRESH_BEFORE_MS;
}

/** Why this client cannot authenticate as the config asks, or undefined. */
export function authProblem(config: ClientConfig, apiKey: string | undefined): ConfigError | undefined {
  if (!config.pjwt_auth_enabled) return undefined;
  if (apiKey === undefined)
    return new ConfigError(
      "tinkerApiKeyEnv",
      "the server exchanges an API key for a JWT (pjwt_auth_enabled), and no key was given",
      "set TINKER_API_KEY (or the variable named by --tinker-api-key-env)",
    );
  if (config.credential_default_source === "credential_cmd" && !apiKey.startsWith("eyJ")) {
    return new ConfigError(
      "tinkerApiKeyEnv",
      "the server asks for a credential from a command (TINKER_CREDENTIAL_CMD), which budgetrl does not run",
      "run the command yourself and give its output (a JWT) as the key",
    );
  }
  return undefined;
}
