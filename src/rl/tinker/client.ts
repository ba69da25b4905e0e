// The HTTP side of the Tinker client, after the SDK 0.25.0. Before its first request it reads the server's
// client config (POST /api/v1/client/config; a server without one gets the SDK's defaults) and, when the config
// says pjwt_auth_enabled, exchanges the API key for a JWT (auth.ts). Requests are JSON, or protobuf bytes
// (forward_backward: zstd-compressed when the config says proto_compress_fwdbwd); each attempt is bounded by a
// timeout; faults are retried with seeded, bounded backoff and a 402 pauses the run with a message, as the SDK
// does (faults.ts). A request that answers {request_id} is a future, polled through POST
// /api/v1/retrieve_future until it is done (JSON, or protobuf when asked for with Accept), failed or expired
// (then the request is sent again: training requests carry a seq_id, so a resent one is not applied twice).
// Polls wait pollMs after a pending answer, doubling up to maxPollMs (servers that long-poll, like SkyRL's,
// answer when the result is ready, so the wait is rarely reached). The API key and the JWT are sent and never
// kept in errors, logs or stats.
import { BudgetrlError } from "../../core/errors.js";
import { createRng, type Rng } from "../../core/rng.js";
import { realSleep, type Sleep } from "../../policies/openai/limiter.js";
import { authProblem, jwtStale } from "./auth.js";
import {
  BAD_REQUEST_RETRIES,
  billingPause,
  BILLING_PAUSE,
  classifyStatus,
  classifyThrown,
  errorDetail,
  retryAfterMs,
  retryDelay,
  type BillingPause,
  type HttpVerdict,
} from "./faults.js";
import { PROTOBUF_CONTENT_TYPE } from "./proto.js";
import { zstdCompress } from "./zstd.js";
import {
  authTokenSchema,
  clientConfigSchema,
  futureSchema,
  futureState,
  readBody,
  TinkerProtocolError,
  type ClientConfig,
} from "./wire.js";

/** The SDK version whose protocol this client speaks: sent to client/config, whose flags depend on it. */
export const PROTOCOL_SDK_VERSION = "0.25.0";

/** A message from the server or about the connection, for the user (session warnings, billing pauses). */
export interface TinkerNotice {
  readonly level: "info" | "warning" | "error";
  readonly message: string;
}

export interface TinkerClientOptions {
  /** The server, without /api/v1 (hosted: https://tinker.thinkingmachines.dev/services/tinker-prod). */
  readonly baseUrl: string;
  /** Sent as X-API-Key (or exchanged for a JWT); undefined: no header (local servers). */
  readonly apiKey?: string | undefined;
  /** Time allowed per HTTP attempt (a retrieve_future that times out is simply polled again). Default 120000. */
  readonly timeoutMs?: number;
  /** Retries after faults per request. Default 6. */
  readonly retries?: number;
  /** First retry delay (doubled each time, seeded jitter), and the longest. Defaults 500, 30000. */
  readonly backoffMs?: number;
  readonly maxBackoffMs?: number;
  /** First wait between polls of a pending future, and the longest. Defaults 25, 1000. */
  readonly pollMs?: number;
  readonly maxPollMs?: number;
  /** Seed of the retry jitter. */
  readonly seed?: number;
  readonly signal?: AbortSignal;
  readonly sleep?: Sleep;
  readonly now?: () => number;
  readonly onRetry?: (event: { readonly attempt: number; readonly delayMs: number; readonly reason: string }) => void;
  /** Where server messages and pauses are shown (default: nowhere). */
  readonly onNotice?: (notice: TinkerNotice) => void;
}

export interface TinkerClientStats {
  /** HTTP requests sent (retries and polls included). */
  readonly requests: number;
  readonly retries: number;
  readonly polls: number;
  /** Waits of 5 s while the server answered 402. */
  readonly pauses: number;
}

export interface SubmitOptions {
  /** "protobuf": ask for the result as protobuf (Accept), as the SDK does for forward_backward and sample. */
  readonly result?: "json" | "protobuf";
}

export interface TinkerClient {
  readonly baseUrl: string;
  /** The server's client config (read once, before the first request). */
  config(): Promise<ClientConfig>;
  get(path: string): Promise<unknown>;
  /** POST a JSON body; resolves with the parsed response. */
  post(path: string, body: unknown): Promise<unknown>;
  /** POST a request that answers with a future, and wait for its result: parsed JSON, or the protobuf bytes
   * (a Uint8Array). A Uint8Array body is sent as protobuf. */
  submit(path: string, body: unknown, options?: SubmitOptions): Promise<unknown>;
  /** Shows a message to the user (through onNotice). */
  notice(notice: TinkerNotice): void;
  stats(): TinkerClientStats;
}

/** A Tinker request that failed after its retries, or could not succeed. */
export class TinkerRequestError extends BudgetrlError {
  constructor(message: string) {
    super("tinker:request", message);
    this.name = "TinkerRequestError";
  }
}

type Attempt =
  | { readonly ok: true; readonly body: unknown }
  | { readonly ok: false; readonly status: number; readonly verdict: HttpVerdict; readonly retryAfterMs?: number };

type Payload =
  | { readonly kind: "none" }
  | { readonly kind: "json"; readonly value: unknown }
  | { readonly kind: "protobuf"; readonly bytes: Uint8Array; readonly zstd: boolean };

interface Exchange {
  readonly method: "GET" | "POST";
  readonly path: string;
  readonly payload: Payload;
  readonly accept: "json" | "protobuf";
  /** The X-API-Key value: the API key for the config and the JWT exchange, else the current credential. */
  readonly credential: () => Promise<string | undefined>;
}

/** The body of a fetch response: bytes when the server sent protobuf, else parsed JSON. */
async function responseBody(response: Response, path: string): Promise<Attempt> {
  if ((response.headers.get("content-type") ?? "").includes(PROTOBUF_CONTENT_TYPE))
    return { ok: true, body: new Uint8Array(await response.arrayBuffer()) };
  const text = await response.text();
  try {
    return { ok: true, body: JSON.parse(text) as unknown };
  } catch {
    return { ok: false, status: response.status, verdict: { kind: "retry", reason: `${path}: the body is not JSON` } };
  }
}

export function createTinkerClient(options: TinkerClientOptions): TinkerClient {
  const baseUrl = options.baseUrl.replace(/\/+$/, "").replace(/\/api\/v1$/, "");
  const settings = {
    timeoutMs: options.timeoutMs ?? 120_000,
    retries: options.retries ?? 6,
    backoffMs: options.backoffMs ?? 500,
    maxBackoffMs: options.maxBackoffMs ?? 30_000,
    pollMs: options.pollMs ?? 25,
    maxPollMs: options.maxPollMs ?? 1000,
  };
  const sleep = options.sleep ?? realSleep;
  const now = options.now ?? Date.now;
  const rng: Rng = createRng(options.seed ?? 0);
  const counts = { requests: 0, retries: 0, polls: 0, pauses: 0 };
  const pause: BillingPause = { first: undefined, lastNotice: undefined, last: undefined };
  const apiKey = async (): Promise<string | undefined> => options.apiKey;
  const notice = (message: TinkerNotice): void => options.onNotice?.(message);
  let known: ClientConfig | undefined;

  const attempt = async (exchange: Exchange): Promise<Attempt> => {
    counts.requests++;
    const signals = [
      AbortSignal.timeout(settings.timeoutMs),
      ...(options.signal === undefined ? [] : [options.signal]),
    ];
    const { payload, path } = exchange;
    try {
      const credential = await exchange.credential();
      const headers: Record<string, string> = {
        accept: exchange.accept === "protobuf" ? PROTOBUF_CONTENT_TYPE : "application/json",
        ...(payload.kind === "none"
          ? {}
          : { "content-type": payload.kind === "json" ? "application/json" : PROTOBUF_CONTENT_TYPE }),
        ...(payload.kind === "protobuf" && payload.zstd ? { "content-encoding": "zstd" } : {}),
        ...(credential === undefined ? {} : { "x-api-key": credential }),
      };
      const body =
        payload.kind === "json"
          ? JSON.stringify(payload.value)
          : payload.kind === "protobuf"
            ? payload.bytes
            : undefined;
      const response = await fetch(`${baseUrl}${path}`, {
        method: exchange.method,
        headers,
        signal: AbortSignal.any(signals),
        ...(body === undefined ? {} : { body }),
      });
      if (response.ok) return await responseBody(response, path);
      const after = retryAfterMs(response.headers, now());
      return {
        ok: false,
        status: response.status,
        verdict: classifyStatus(response.status, path, errorDetail(await response.text())),
        ...(after === undefined ? {} : { retryAfterMs: after }),
      };
    } catch (error) {
      if (error instanceof BudgetrlError) throw error;
      return { ok: false, status: 0, verdict: classifyThrown(error, path, options.signal?.aborted === true) };
    }
  };

  /** A 402: wait 5 s (saying so now and then), or give up once the pause passes the server's limit. */
  const pauseFor = async (reason: string): Promise<void> => {
    const limitMs = (known?.billing_exception_max_pause_duration_sec ?? 3600) * 1000;
    const decision = billingPause(pause, now(), limitMs);
    if (decision.action === "stop")
      throw new TinkerRequestError(
        `${reason}: the job was paused for billing for ${Math.round(decision.pausedMs / 1000)} s, longer than the server allows (${limitMs / 1000} s)`,
      );
    if (decision.notice)
      notice({
        level: "warning",
        message: `tinker: the job is paused because of its billing status (${reason}); it goes on when the server accepts requests again`,
      });
    counts.pauses++;
    await sleep(BILLING_PAUSE.waitMs, options.signal);
  };

  /** One request with retries and billing pauses; pending, bad-request, resubmit and fatal verdicts go to the caller. */
  const request = async (exchange: Exchange): Promise<Attempt> => {
    for (let tries = 0; ;) {
      const result = await attempt(exchange);
      if (result.ok) return result;
      if (result.verdict.kind === "pause") {
        await pauseFor(result.verdict.reason);
        continue;
      }
      if (result.verdict.kind !== "retry") return result;
      if (tries >= settings.retries)
        throw new TinkerRequestError(`tinker request failed after ${tries + 1} attempts: ${result.verdict.reason}`);
      const delayMs = retryDelay(
        tries,
        result.retryAfterMs === undefined ? {} : { retryAfterMs: result.retryAfterMs },
        settings,
        rng,
      );
      options.onRetry?.({ attempt: tries, delayMs, reason: result.verdict.reason });
      counts.retries++;
      tries++;
      await sleep(delayMs, options.signal);
    }
  };

  const unwrap = (result: Attempt): unknown => {
    if (result.ok) return result.body;
    throw new TinkerRequestError(
      `tinker request failed: ${result.verdict.kind === "pending" ? "still pending" : result.verdict.reason}`,
    );
  };

  // ---- the client config and the credential ----
  const json = (value: unknown): Payload => ({ kind: "json", value });
  const readConfig = async (): Promise<ClientConfig> => {
    const result = await request({
      method: "POST",
      path: "/api/v1/client/config",
      payload: json({ sdk_version: PROTOCOL_SDK_VERSION }),
      accept: "json",
      credential: apiKey,
    });
    // A server that predates the endpoint (404) gets the SDK's defaults: plain API key, no compression.
    const config =
      !result.ok && result.status === 404
        ? clientConfigSchema.parse({})
        : readBody(clientConfigSchema, unwrap(result), "client/config");
    const problem = authProblem(config, options.apiKey);
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
      await request({
        method: "POST",
        path: "/api/v1/auth/token",
        payload: json({}),
        accept: "json",
        credential: apiKey,
      }),
    );
    return readBody(authTokenSchema, body, "auth/token").jwt;
  };
  const credential = async (): Promise<string | undefined> => {
    if (!(await config()).pjwt_auth_enabled) return options.apiKey;
    if (jwt === undefined || jwtStale(jwt, now())) {
      refreshing ??= fetchJwt().finally(() => (refreshing = undefined));
      jwt = await refreshing;
    }
    return jwt;
  };

  const call = async (
    method: "GET" | "POST",
    path: string,
    body: unknown,
    accept: "json" | "protobuf" = "json",
  ): Promise<Attempt> => {
    if (!(body instanceof Uint8Array))
      return request({ method, path, payload: body === undefined ? { kind: "none" } : json(body), accept, credential });
    const zstd = (await config()).proto_compress_fwdbwd;
    return request({
      method,
      path,
      payload: { kind: "protobuf", bytes: zstd ? await zstdCompress(body) : body, zstd },
      accept,
      credential,
    });
  };

  /** Polls a future until done (its value), failed (throws) or expired (undefined: resubmit). */
  const awaitFuture = async (
    requestId: string,
    accept: "json" | "protobuf",
  ): Promise<{ readonly value: unknown } | undefined> => {
    let wait = settings.pollMs;
    let badRequests = 0;
    for (;;) {
      counts.polls++;
      const result = await call(
        "POST",
        "/api/v1/retrieve_future",
        { request_id: requestId, allow_metadata_only: false },
        accept,
      );
      if (!result.ok && result.verdict.kind === "resubmit") return undefined;
      if (!result.ok && result.verdict.kind === "fatal")
        throw new TinkerRequestError(`tinker request ${requestId} failed: ${result.verdict.reason}`);
      if (!result.ok && result.verdict.kind === "bad-request") {
        if (badRequests++ < BAD_REQUEST_RETRIES) continue;
        throw new TinkerRequestError(
          `tinker request ${requestId} failed: ${result.verdict.reason} (still after ${BAD_REQUEST_RETRIES} more polls)`,
        );
      }
      if (!result.ok) badRequests = 0;
      const state = result.ok
        ? result.body instanceof Uint8Array
          ? { kind: "done" as const, value: result.body }
          : futureState(result.body)
        : { kind: "pending" as const };
      if (state.kind === "done") return { value: state.value };
      if (state.kind === "failed") throw new TinkerRequestError(`tinker request ${requestId} failed: ${state.message}`);
      await sleep(wait, options.signal);
      wait = Math.min(settings.maxPollMs, wait * 2);
    }
  };

  return {
    baseUrl,
    config,
    get: async (path) => unwrap(await call("GET", path, undefined)),
    post: async (path, body) => unwrap(await call("POST", path, body)),
    async submit(path, body, submitOptions = {}) {
      for (let tries = 0; ; tries++) {
        const future = readBody(futureSchema, unwrap(await call("POST", path, body)), path);
        const result = await awaitFuture(future.request_id, submitOptions.result ?? "json");
        if (result !== undefined) return result.value;
        if (tries >= settings.retries)
          throw new TinkerRequestError(`tinker request to ${path} expired on the server ${tries + 1} times`);
        counts.retries++;
      }
    },
    notice,
    stats: () => ({ ...counts }),
  };
}

export { TinkerProtocolError };
