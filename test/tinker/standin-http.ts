// The HTTP edges of the stand-in server: who may call (the API key, or a live JWT after the exchange when the
// client config says pjwt_auth_enabled: JWTs expire on the injected clock), and what a request body is (the
// SDK 0.25's protobuf for forward_backward, zstd-decoded with fzstd when Content-Encoding says so; JSON checked
// against the SDK's request types elsewhere, standin-schemas.ts).
import type { IncomingMessage } from "node:http";
import { decompress } from "fzstd";
import { decodeMessage } from "./standin-proto.js";
import { REQUEST_SCHEMAS, validationDetail, type JsonEndpoint } from "./standin-schemas.js";

export const PROTOBUF = "application/x-protobuf";

const base64url = (value: unknown): string => Buffer.from(JSON.stringify(value)).toString("base64url");

export interface AuthOptions {
  readonly apiKey?: string;
  readonly jwt: boolean;
  readonly ttlSeconds: number;
  readonly now: () => number;
}

export function createAuth(options: AuthOptions): {
  issue(): string;
  check(path: string, credential: string | undefined): string | undefined;
} {
  const issued = new Map<string, number>();
  let serial = 0;
  return {
    /** A JWT (unsigned: the stand-in checks that it issued it) valid for ttlSeconds. */
    issue() {
      const exp = Math.floor(options.now() / 1000) + options.ttlSeconds;
      const jwt = `${base64url({ alg: "none", typ: "JWT" })}.${base64url({ sub: "standin", exp, n: ++serial })}.standin`;
      issued.set(jwt, exp);
      return jwt;
    },
    /** Why the credential is refused at `path`, or undefined: the API key for the config and the JWT exchange;
     * elsewhere the key, or only a live JWT when the exchange is on. */
    check(path, credential) {
      if (path === "/api/v1/client/config" || path === "/api/v1/auth/token" || !options.jwt)
        return options.apiKey === undefined || credential === options.apiKey ? undefined : "invalid API key";
      const expiry = credential === undefined ? undefined : issued.get(credential);
      return expiry !== undefined && expiry * 1000 > options.now() ? undefined : "Invalid JWT";
    },
  };
}

/** The request body: the SDK's protobuf for forward_backward, JSON checked against the SDK's types elsewhere. */
export function readRequestBody(
  path: string,
  request: IncomingMessage,
  raw: Buffer,
):
  | { readonly ok: true; readonly body: Record<string, unknown> }
  | { readonly ok: false; readonly status: number; readonly detail: unknown } {
  if (path === "/api/v1/forward_backward") {
    if (!(request.headers["content-type"] ?? "").includes(PROTOBUF))
      return {
        ok: false,
        status: 415,
        detail: "forward_backward takes the SDK 0.25 protobuf body (Content-Type: application/x-protobuf)",
      };
    try {
      const bytes = (request.headers["content-encoding"] ?? "") === "zstd" ? decompress(raw) : raw;
      return { ok: true, body: decodeMessage(bytes, "ForwardBackwardRequest", "forward_backward") };
    } catch (error) {
      return { ok: false, status: 422, detail: `Invalid proto forward_backward body: ${(error as Error).message}` };
    }
  }
  let parsed: unknown = {};
  try {
    parsed = raw.length === 0 ? {} : JSON.parse(raw.toString("utf8"));
  } catch {
    return { ok: false, status: 422, detail: "the body is not JSON" };
  }
  const schema = REQUEST_SCHEMAS[path as JsonEndpoint] as (typeof REQUEST_SCHEMAS)[JsonEndpoint] | undefined;
  if (schema === undefined) return { ok: true, body: (parsed ?? {}) as Record<string, unknown> };
  const checked = schema.safeParse(parsed);
  return checked.success
    ? { ok: true, body: checked.data as Record<string, unknown> }
    : { ok: false, status: 422, detail: validationDetail(checked.error) };
}
