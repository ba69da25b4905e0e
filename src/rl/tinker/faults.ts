// What a failed Tinker HTTP exchange means (pure functions). The same rules as the openai policy's faults
// (src/policies/openai/faults.ts: its Retry-After reading and seeded, bounded backoff are reused), plus the
// two answers that belong to futures:
//
//   timeout, refused or dropped connection, unreadable body            -> retry (after a backoff)
//   408 from retrieve_future (SkyRL: still pending), try_again body     -> pending: poll again
//   408 elsewhere, 425, 429, 5xx                                        -> retry, after Retry-After when given
//   410 from retrieve_future (the future expired on the server)         -> resubmit the request (same seq_id)
//   400 from retrieve_future (SkyRL: the request failed), other 4xx    -> fatal, with the server's message
export { retryAfterMs, retryDelay } from "../../policies/openai/faults.js";

export type HttpVerdict =
  | { readonly kind: "retry"; readonly reason: string }
  | { readonly kind: "pending" }
  | { readonly kind: "resubmit"; readonly reason: string }
  | { readonly kind: "fatal"; readonly reason: string };

const RETRY_STATUSES = new Set([408, 425, 429]);

/** The verdict on an HTTP status other than 2xx from `endpoint`, whose body said `detail`. */
export function classifyStatus(status: number, endpoint: string, detail: string): HttpVerdict {
  const reason = `${endpoint} answered ${status}${detail === "" ? "" : `: ${detail}`}`;
  const polling = endpoint.endsWith("/retrieve_future");
  if (polling && status === 408) return { kind: "pending" };
  if (polling && status === 410) return { kind: "resubmit", reason };
  if (RETRY_STATUSES.has(status) || status >= 500) return { kind: "retry", reason };
  return { kind: "fatal", reason };
}

/** The verdict on a request that got no HTTP answer (fetch threw). Our own stop signal is fatal. */
export function classifyThrown(error: unknown, endpoint: string, stopped: boolean): HttpVerdict {
  const message = error instanceof Error ? error.message : String(error);
  if (stopped) return { kind: "fatal", reason: `${endpoint}: stopped` };
  if (endpoint.endsWith("/retrieve_future") && error instanceof Error && error.name === "TimeoutError") return { kind: "pending" };
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
