// One HTTP attempt of the Tinker client: the request as the SDK 0.25.0 sends it (Accept and Content-Type, zstd
// Content-Encoding for a compressed protobuf body, X-API-Key, a User-Agent naming budgetrl: version.ts, the SDK's
// version as X-Stainless-Package-Version and the retries taken as X-Stainless-Retry-Count (_base_client.py), on a
// POST the request's X-Idempotency-Key, the same on every retry of that request as _base_client.py keeps it; on a
// poll X-Tinker-Request-Type and X-Tinker-Request-Iteration (api_future_impl.py), on a sampling submission
// X-Tinker-Sampling-Backpressure: 1 (sampling_client.py)), bounded by the attempt timeout and the client's stop
// signal (one listener per attempt, removed after it), and what came back: the body (protobuf bytes or parsed JSON),
// or the verdict on the failure (faults.ts, with the server's x-should-retry) and its Retry-After.
import { BudgetrlError } from "../core/errors.js";
import type { Attempt, ClientContext, Exchange } from "./client-context.js";
import { classifyStatus, classifyThrown, errorDetail, retryAfterMs, shouldRetry } from "./faults.js";
import { PROTOBUF_CONTENT_TYPE } from "./proto.js";
import { PROTOCOL_SDK_VERSION, userAgent } from "./version.js";

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

function headersOf(
  exchange: Exchange,
  credential: string | undefined,
  key: string | undefined,
  retries: number,
): Record<string, string> {
  const { payload } = exchange;
  return {
    accept: exchange.accept === "protobuf" ? PROTOBUF_CONTENT_TYPE : "application/json",
    "user-agent": userAgent(),
    "x-stainless-package-version": PROTOCOL_SDK_VERSION,
    "x-stainless-retry-count": String(retries),
    ...(exchange.requestType === undefined ? {} : { "x-tinker-request-type": exchange.requestType }),
    ...(exchange.iterations === undefined ? {} : { "x-tinker-request-iteration": String(exchange.iterations.next++) }),
    ...(exchange.backpressure === true ? { "x-tinker-sampling-backpressure": "1" } : {}),
    ...(payload.kind === "none"
      ? {}
      : { "content-type": payload.kind === "json" ? "application/json" : PROTOBUF_CONTENT_TYPE }),
    ...(payload.kind === "protobuf" && payload.zstd ? { "content-encoding": "zstd" } : {}),
    ...(credential === undefined ? {} : { "x-api-key": credential }),
    ...(key === undefined ? {} : { "x-idempotency-key": key }),
  };
}

/** An abort signal for one attempt: its timeout, and the client's signal (one listener, removed by `done`). */
function attemptSignal(context: ClientContext, timeoutMs: number): { signal: AbortSignal; done: () => void } {
  const controller = new AbortController();
  const timer = setTimeout(
    () => controller.abort(new DOMException("the attempt timed out", "TimeoutError")),
    timeoutMs,
  );
  const outer = context.signal;
  const onAbort = (): void => controller.abort(outer?.reason);
  if (outer?.aborted === true) onAbort();
  else outer?.addEventListener("abort", onAbort, { once: true });
  return {
    signal: controller.signal,
    done: () => {
      clearTimeout(timer);
      outer?.removeEventListener("abort", onAbort);
    },
  };
}

/** Sends `exchange` once; `key` is its request's idempotency key (undefined on a GET), `retries` the retries taken. */
export async function sendAttempt(
  context: ClientContext,
  exchange: Exchange,
  key: string | undefined,
  retries = 0,
): Promise<Attempt> {
  context.counts.requests++;
  const attempt = attemptSignal(context, exchange.timeoutMs ?? context.settings.timeoutMs);
  const { payload, path } = exchange;
  try {
    const credential = await exchange.credential();
    const body =
      payload.kind === "json" ? JSON.stringify(payload.value) : payload.kind === "protobuf" ? payload.bytes : undefined;
    const response = await fetch(`${context.baseUrl}${path}`, {
      method: exchange.method,
      headers: headersOf(exchange, credential, key, retries),
      signal: attempt.signal,
      ...(body === undefined ? {} : { body }),
    });
    if (response.ok) return await responseBody(response, path);
    const after = retryAfterMs(response.headers, context.now());
    const verdict = classifyStatus(response.status, path, errorDetail(await response.text()));
    return {
      ok: false,
      status: response.status,
      verdict: shouldRetry(verdict, response.headers.get("x-should-retry")),
      ...(after === undefined ? {} : { retryAfterMs: after }),
    };
  } catch (error) {
    if (error instanceof BudgetrlError) throw error;
    return { ok: false, status: 0, verdict: classifyThrown(error, path, context.signal?.aborted === true) };
  } finally {
    attempt.done();
  }
}
