// One HTTP attempt of the Tinker client: the request as the SDK 0.25.0 sends it (Accept and Content-Type, zstd
// Content-Encoding for a compressed protobuf body, X-API-Key, a User-Agent naming budgetrl: version.ts, and on a POST
// the request's X-Idempotency-Key, the same on every retry of that request as _base_client.py keeps it), bounded by
// the attempt timeout and the caller's stop signal, and what came back: the body (protobuf bytes or parsed JSON), or
// the verdict on the failure (faults.ts) with the server's Retry-After.
import { BudgetrlError } from "../core/errors.js";
import type { Attempt, ClientContext, Exchange } from "./client-context.js";
import { classifyStatus, classifyThrown, errorDetail, retryAfterMs } from "./faults.js";
import { PROTOBUF_CONTENT_TYPE } from "./proto.js";
import { userAgent } from "./version.js";

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
): Record<string, string> {
  const { payload } = exchange;
  return {
    accept: exchange.accept === "protobuf" ? PROTOBUF_CONTENT_TYPE : "application/json",
    "user-agent": userAgent(),
    ...(payload.kind === "none"
      ? {}
      : { "content-type": payload.kind === "json" ? "application/json" : PROTOBUF_CONTENT_TYPE }),
    ...(payload.kind === "protobuf" && payload.zstd ? { "content-encoding": "zstd" } : {}),
    ...(credential === undefined ? {} : { "x-api-key": credential }),
    ...(key === undefined ? {} : { "x-idempotency-key": key }),
  };
}

/** Sends `exchange` once; `key` is its request's idempotency key (undefined on a GET). */
export async function sendAttempt(
  context: ClientContext,
  exchange: Exchange,
  key: string | undefined,
): Promise<Attempt> {
  context.counts.requests++;
  const { signal } = context.options;
  const signals = [AbortSignal.timeout(context.settings.timeoutMs), ...(signal === undefined ? [] : [signal])];
  const { payload, path } = exchange;
  try {
    const credential = await exchange.credential();
    const body =
      payload.kind === "json" ? JSON.stringify(payload.value) : payload.kind === "protobuf" ? payload.bytes : undefined;
    const response = await fetch(`${context.baseUrl}${path}`, {
      method: exchange.method,
      headers: headersOf(exchange, credential, key),
      signal: AbortSignal.any(signals),
      ...(body === undefined ? {} : { body }),
    });
    if (response.ok) return await responseBody(response, path);
    const after = retryAfterMs(response.headers, context.now());
    return {
      ok: false,
      status: response.status,
      verdict: classifyStatus(response.status, path, errorDetail(await response.text())),
      ...(after === undefined ? {} : { retryAfterMs: after }),
    };
  } catch (error) {
    if (error instanceof BudgetrlError) throw error;
    return { ok: false, status: 0, verdict: classifyThrown(error, path, signal?.aborted === true) };
  }
}
