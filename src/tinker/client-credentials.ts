// The Tinker client's setup and credential, as the SDK 0.25.0 does it: the server's client config read once, before
// the first request (POST /api/v1/client/config with the SDK version, version.ts; a server without the endpoint, 404,
// gets the SDK's defaults), then the X-API-Key of every request: the API key, or, when the config says
// pjwt_auth_enabled, a JWT fetched with it (POST /api/v1/auth/token) and fetched again shortly before it expires
// (auth.ts). A failed config read is tried again by the next request.
import { authProblem, jwtStale } from "./auth.js";
import { TinkerRequestError, type Attempt, type ClientContext, type Payload } from "./client-context.js";
import type { SendWithRetries } from "./client-retry.js";
import { PROTOCOL_SDK_VERSION } from "./version.js";
import { authTokenSchema, clientConfigSchema, readBody, type ClientConfig } from "./wire.js";

export interface Credentials {
  /** The server's client config (read once, before the first request). */
  config(): Promise<ClientConfig>;
  /** The config once read, else undefined. */
  known(): ClientConfig | undefined;
  /** The X-API-Key value of a request after the setup. */
  credential(): Promise<string | undefined>;
}

/** The body of a successful attempt; a failed one as a TinkerRequestError with its reason. */
export function unwrap(result: Attempt): unknown {
  if (result.ok) return result.body;
  throw new TinkerRequestError(
    `tinker request failed: ${result.verdict.kind === "pending" ? "still pending" : result.verdict.reason}`,
  );
}

export const jsonPayload = (value: unknown): Payload => ({ kind: "json", value });

export function createCredentials(context: ClientContext, send: SendWithRetries): Credentials {
  const { apiKey } = context.options;
  const withApiKey = async (): Promise<string | undefined> => apiKey;
  let known: ClientConfig | undefined;
  const readConfig = async (): Promise<ClientConfig> => {
    const result = await send({
      method: "POST",
      path: "/api/v1/client/config",
      payload: jsonPayload({ sdk_version: PROTOCOL_SDK_VERSION }),
      accept: "json",
      credential: withApiKey,
    });
    // A server that predates the endpoint (404) gets the SDK's defaults: plain API key, no compression.
    const config =
      !result.ok && result.status === 404
        ? clientConfigSchema.parse({})
        : readBody(clientConfigSchema, unwrap(result), "client/config");
    const problem = authProblem(config, apiKey);
    if (problem !== undefined) throw problem;
    known = config;
    return config;
  };
  let setup: Promise<ClientConfig> | undefined;
  const config = (): Promise<ClientConfig> =>
    (setup ??= readConfig().catch((error: unknown) => {
      setup = undefined;
      throw error;
    }));

  let jwt: string | undefined;
  let refreshing: Promise<string> | undefined;
  const fetchJwt = async (): Promise<string> => {
    const body = unwrap(
      await send({
        method: "POST",
        path: "/api/v1/auth/token",
        payload: jsonPayload({}),
        accept: "json",
        credential: withApiKey,
      }),
    );
    return readBody(authTokenSchema, body, "auth/token").jwt;
  };
  return {
    config,
    known: () => known,
    async credential() {
      if (!(await config()).pjwt_auth_enabled) return apiKey;
      if (jwt === undefined || jwtStale(jwt, context.now())) {
        refreshing ??= fetchJwt().finally(() => (refreshing = undefined));
        jwt = await refreshing;
      }
      return jwt;
    },
  };
}
