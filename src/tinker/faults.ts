// What a failed Tinker HTTP exchange means (pure functions): the rules of the Tinker SDK 0.25.0
// (_base_client.py _should_retry, lib/internal_client_holder.py ClientConnectionPool and execute_with_retries,
// lib/api_future_impl.py); how long to wait and when to stop is backoff.ts's business (a deadline, as the SDK):
//
//   timeout, refused or dropped connection, unreadable body            -> retry (after a backoff)
//   400 with an empty body, anywhere (a proxy's: Cloudflare)            -> proxy-400: retried while the client's budget
//                                                                          lasts (16, one back per answered request: the
//                                                                          SDK's MAX_CONNECTION_ERROR_RETRIES)
//   408 from retrieve_future (SkyRL: still pending), try_again body     -> pending: poll again
//   400 with a body from retrieve_future                                -> bad-request: polled again, at most 3 times in a
//                                                                          row (SkyRL's failed request answers 400, and
//                                                                          fails after them)
//   402 (billing)                                                       -> pause: wait and send again, with a message,
//                                                                          until the pause passes the config's limit
//   408 elsewhere, 409, 425, 429, 5xx                                   -> retry, after Retry-After when given
//   410 from retrieve_future (the future expired on the server)         -> resubmit the request (same seq_id)
//   other 4xx (a 400 with a body at submission: the request is wrong)   -> fatal, with the server's message
// A response's x-should-retry header overrides: "true" retries what would be fatal, "false" makes a retry fatal
// (_base_client.py _should_retry obeys it before the status).
import { thrownWithCause } from "../core/errors.js";
export { retryAfterMs } from "../policies/openai/faults.js";

export type HttpVerdict =
  | { readonly kind: "retry"; readonly reason: string }
  | { readonly kind: "proxy-400"; readonly reason: string }
  | { readonly kind: "pending" }
  | { readonly kind: "bad-request"; readonly reason: string }
  | { readonly kind: "pause"; readonly reason: string }
  | { readonly kind: "resubmit"; readonly reason: string }
  | { readonly kind: "fatal"; readonly reason: string };

const RETRY_STATUSES = new Set([408, 409, 425, 429]);

/** 400s from retrieve_future polled again in a row before the 400 is believed (the SDK's budget). */
export const BAD_REQUEST_RETRIES = 3;

/** Bare 400s retried by one client before one is believed; every answered request gives one back (the SDK's
 * MAX_CONNECTION_ERROR_RETRIES, per connection pool). */
export const PROXY_400_RETRIES = 16;

/** The verdict on an HTTP status other than 2xx from `endpoint`, whose body said `detail` ("": an empty body). */
export function classifyStatus(status: number, endpoint: string, detail: string): HttpVerdict {
  const reason = `${endpoint} answered ${status}${detail === "" ? " with an empty body" : `: ${detail}`}`;
  const polling = endpoint.endsWith("/retrieve_future");
  if (status === 400 && detail === "") return { kind: "proxy-400", reason };
  if (status === 402) return { kind: "pause", reason };
  if (polling && status === 408) return { kind: "pending" };
  if (polling && status === 410) return { kind: "resubmit", reason };
  if (polling && status === 400) return { kind: "bad-request", reason };
  if (RETRY_STATUSES.has(status) || status >= 500) return { kind: "retry", reason };
  return { kind: "fatal", reason };
}

/** The verdict after the server's x-should-retry header ("true", "false"; anything else changes nothing). Pending
 * polls, expired futures and billing pauses keep their own rules. */
export function shouldRetry(verdict: HttpVerdict, header: string | null): HttpVerdict {
  if (header === "false" && (verdict.kind === "retry" || verdict.kind === "proxy-400"))
    return { kind: "fatal", reason: `${verdict.reason} (x-should-retry: false)` };
  if (header === "true" && (verdict.kind === "fatal" || verdict.kind === "bad-request"))
    return { kind: "retry", reason: verdict.reason };
  return verdict;
}

/** The verdict on a request that got no HTTP answer (fetch threw). Our own stop signal is fatal. */
export function classifyThrown(error: unknown, endpoint: string, stopped: boolean): HttpVerdict {
  const message = thrownWithCause(error);
  if (stopped) return { kind: "fatal", reason: `${endpoint}: stopped` };
  if (endpoint.endsWith("/retrieve_future") && error instanceof Error && error.name === "TimeoutError")
    return { kind: "pending" };
  return { kind: "retry", reason: `${endpoint}: ${message}` };
}

/** The message of an error body: FastAPI's {"detail"}, {"error"} or {"message"}, else the text itself (cut). */
export function errorDetail(text: string): string {
  try {
    const body = JSON.parse(text) as unknown;
    if (body !== null && typeof body === "object") {
      const record = body as Record<string, unknown>;
      for (const key of ["detail", "error", "message"]) {
        const value = record[key];
        if (typeof value === "string") return value;
        if (value !== undefined) return JSON.stringify(value).slice(0, 500);
      }
    }
  } catch {
    // not JSON: the text itself
  }
  return text.slice(0, 500);
}

/** The billing pause of the SDK: 5 s waits while the server answers 402, a message at most once a minute, a new
 * incident after 5 minutes without a 402, and a fatal error once one incident has lasted `limitMs`. */
export const BILLING_PAUSE = { waitMs: 5_000, noticeEveryMs: 60_000, resetAfterMs: 300_000 } as const;

export interface BillingPause {
  first: number | undefined;
  lastNotice: number | undefined;
  last: number | undefined;
}

/** What to do about a 402 at time `now`: wait (and say so when `notice`), or give up. Updates `pause`. */
export function billingPause(
  pause: BillingPause,
  now: number,
  limitMs: number,
): { readonly action: "wait"; readonly notice: boolean } | { readonly action: "stop"; readonly pausedMs: number } {
  if (pause.last !== undefined && now - pause.last > BILLING_PAUSE.resetAfterMs) {
    pause.first = undefined;
    pause.lastNotice = undefined;
  }
  pause.last = now;
  pause.first ??= now;
  if (now - pause.first > limitMs) return { action: "stop", pausedMs: now - pause.first };
  const notice = pause.lastNotice === undefined || now - pause.lastNotice > BILLING_PAUSE.noticeEveryMs;
  if (notice) pause.lastNotice = now;
  return { action: "wait", notice };
}
