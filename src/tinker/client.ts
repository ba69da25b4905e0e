// The HTTP side of the Tinker client, after the SDK 0.25.0, assembled from its steps:
//   client-credentials.ts  the server's client config, read before the first request, and the credential (API key,
//                          or a JWT fetched with it when the config says pjwt_auth_enabled: auth.ts)
//   client-exchange.ts     one HTTP attempt: JSON, or protobuf bytes (forward_backward: zstd-compressed when the
//                          config says proto_compress_fwdbwd), bounded by a timeout, with a User-Agent naming budgetrl
//                          and, on a POST, an X-Idempotency-Key kept across the request's retries
//   client-retry.ts        faults retried with the SDK's backoff until the request's deadline (backoff.ts, faults.ts;
//                          5 min, sampling 2 h, polls none), 402s pausing the run with a message, sampling's 429s
//                          waited out, an outage said once as it starts, once a minute, once as it ends (core/outage-notices.ts)
//   client-futures.ts      a request that answers {request_id} is a future, polled through POST
//                          /api/v1/retrieve_future until it is done, failed or expired (then the request is sent
//                          again, with a new idempotency key: training requests carry a seq_id, so a resent one is not
//                          applied twice)
// Every request says its type as the SDK names it (X-Tinker-Request-Type on its polls); a heartbeat is one attempt
// (probe) outside the retrier.
// The API key and the JWT are sent and never kept in errors, logs or stats.
import { afterFault, newFaultRun } from "./backoff.js";
import {
  clientContext,
  TinkerRequestError,
  type Attempt,
  type ClientContext,
  type TinkerClientOptions,
  type TinkerClientStats,
  type TinkerNotice,
} from "./client-context.js";
import { createCredentials, jsonPayload, unwrap, type Credentials } from "./client-credentials.js";
import { awaitFuture, type Call } from "./client-futures.js";
import { createRetrier, type SendWithRetries } from "./client-retry.js";
import { zstdCompress } from "./zstd.js";
import { CLIENT_CONFIG_DEFAULTS, futureSchema, readBody, TinkerProtocolError, type ClientConfig } from "./wire.js";

export { PROTOCOL_SDK_VERSION } from "./version.js";
export {
  TinkerRequestError,
  type TinkerClientOptions,
  type TinkerClientStats,
  type TinkerNotice,
} from "./client-context.js";

export interface SubmitOptions {
  /** "protobuf": ask for the result as protobuf (Accept), as the SDK does for forward_backward and sample. */
  readonly result?: "json" | "protobuf";
  /** The request's type as the SDK names it (default from the path: /api/v1/optim_step is OptimStep). */
  readonly requestType?: string;
}

/** The SDK's names of the requests that answer with a future, by path (training_client.py, sampling_client.py). */
const REQUEST_TYPES: Readonly<Record<string, string>> = {
  "/api/v1/asample": "Sample",
  "/api/v1/forward_backward": "ForwardBackward",
  "/api/v1/forward": "Forward",
};

/** A request's type: the table's, else its path's last part in PascalCase (optim_step: OptimStep). */
export function requestTypeOf(path: string): string {
  return (
    REQUEST_TYPES[path] ??
    (path.split("/").pop() ?? "")
      .split("_")
      .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
      .join("")
  );
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
  /** POST once, outside the retrier (a heartbeat): whether it was answered, and why not. */
  probe(
    path: string,
    body: unknown,
    timeoutMs: number,
  ): Promise<{ readonly ok: true } | { readonly ok: false; readonly reason: string }>;
  /** Shows a message to the user (through onNotice). */
  notice(notice: TinkerNotice): void;
  stats(): TinkerClientStats;
}

/** Sends a body as its payload kind, with the current credential (after the setup). */
function caller(send: SendWithRetries, credentials: Credentials): Call {
  const credential = (): Promise<string | undefined> => credentials.credential();
  return async (method, path, body, options = {}): Promise<Attempt> => {
    const { accept = "json", ...extras } = options;
    if (!(body instanceof Uint8Array))
      return send({
        method,
        path,
        payload: body === undefined ? { kind: "none" } : jsonPayload(body),
        accept,
        credential,
        ...extras,
      });
    const zstd = (await credentials.config()).proto_compress_fwdbwd;
    return send({
      method,
      path,
      payload: { kind: "protobuf", bytes: zstd ? await zstdCompress(body) : body, zstd },
      accept,
      credential,
      ...extras,
    });
  };
}

/** Submit a request and wait for its future; an expired future is submitted again (with a backoff, until the
 * deadline counted from the first expiry). */
async function submitAndWait(
  context: ClientContext,
  call: Call,
  path: string,
  body: unknown,
  options: SubmitOptions,
): Promise<unknown> {
  const expiries = newFaultRun();
  const requestType = options.requestType ?? requestTypeOf(path);
  const sampling = requestType === "Sample";
  const submission = sampling ? { deadlineMs: context.settings.samplingDeadlineMs, backpressure: true } : {};
  for (;;) {
    const future = readBody(futureSchema, unwrap(await call("POST", path, body, submission)), path);
    const result = await awaitFuture(context, call, future.request_id, options.result ?? "json", requestType);
    if (result !== undefined) return result.value;
    const patience = sampling
      ? { ...context.settings, deadlineMs: context.settings.samplingDeadlineMs }
      : context.settings;
    const decision = afterFault(expiries, context.now(), undefined, patience, context.rng);
    if (decision.action === "stop")
      throw new TinkerRequestError(
        `tinker request to ${path} expired on the server ${expiries.count + 1} times, for longer than the client's deadline`,
      );
    context.counts.retries++;
    context.counts.waitedMs += decision.waitMs;
    await context.sleep(decision.waitMs, context.signal);
  }
}

export function createTinkerClient(options: TinkerClientOptions): TinkerClient {
  const context = clientContext(options);
  let credentials: Credentials | undefined;
  const billingLimitMs = (): number =>
    (credentials?.known() ?? CLIENT_CONFIG_DEFAULTS).billing_exception_max_pause_duration_sec * 1000;
  const send = createRetrier(context, billingLimitMs);
  credentials = createCredentials(context, send);
  const call = caller(send, credentials);
  return {
    baseUrl: context.baseUrl,
    config: (credentials as Credentials).config,
    get: async (path) => unwrap(await call("GET", path, undefined)),
    post: async (path, body) => unwrap(await call("POST", path, body)),
    submit: (path, body, submitOptions = {}) => submitAndWait(context, call, path, body, submitOptions),
    async probe(path, body, timeoutMs) {
      const result = await call("POST", path, body, { once: true, timeoutMs });
      return result.ok
        ? { ok: true }
        : { ok: false, reason: result.verdict.kind === "pending" ? `${path}: no answer` : result.verdict.reason };
    },
    notice: context.notice,
    stats: () => ({ ...context.counts }),
  };
}

export { TinkerProtocolError };
