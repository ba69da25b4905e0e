// Waiting for a Tinker future, as lib/api_future_impl.py of the SDK 0.25.0 does: POST /api/v1/retrieve_future (JSON,
// or protobuf when asked for with Accept; X-Tinker-Request-Type the submitted request's type and
// X-Tinker-Request-Iteration the poll's number) until the result is done, failed or expired. A pending answer
// (try_again, SkyRL's 408, an attempt that timed out) is polled again after pollMs, doubling up to maxPollMs (servers
// that long-poll answer when the result is ready, so the wait is rarely reached); a poll that faults (5xx, 429, a
// dropped connection, a bare 400) is sent again with the client's backoff (client-retry.ts) for as long as the
// future lives: an accepted request is never abandoned for an outage, as the SDK never abandons it (it polls again at
// once after a 5xx; here after the backoff, up to 30 s, kinder to a struggling service). A 400 with a body is polled
// again at most 3 times in a row; a 410 (the future expired) asks the caller to submit the request again.
import { TinkerRequestError, type Attempt, type ClientContext, type ExchangeExtras } from "./client-context.js";
import { BAD_REQUEST_RETRIES } from "./faults.js";
import { futureState } from "./wire.js";

/** How a call is sent: its result kind, and the exchange's extras (deadline, headers). */
export interface CallOptions extends ExchangeExtras {
  readonly accept?: "json" | "protobuf";
}

export type Call = (method: "GET" | "POST", path: string, body: unknown, options?: CallOptions) => Promise<Attempt>;

type PollOutcome =
  { readonly kind: "done"; readonly value: unknown } | { readonly kind: "pending" } | { readonly kind: "expired" };

/** What one poll said; throws for a failed request, or a 400 believed after its polls. */
function pollOutcome(result: Attempt, requestId: string, badRequests: { count: number }): PollOutcome {
  if (result.ok) {
    badRequests.count = 0;
    if (result.body instanceof Uint8Array) return { kind: "done", value: result.body };
    const state = futureState(result.body);
    if (state.kind === "failed") throw new TinkerRequestError(`tinker request ${requestId} failed: ${state.message}`);
    return state.kind === "done" ? { kind: "done", value: state.value } : { kind: "pending" };
  }
  const { verdict } = result;
  if (verdict.kind === "resubmit") return { kind: "expired" };
  if (verdict.kind === "bad-request") {
    if (badRequests.count++ < BAD_REQUEST_RETRIES) return { kind: "pending" };
    throw new TinkerRequestError(
      `tinker request ${requestId} failed: ${verdict.reason} (still after ${BAD_REQUEST_RETRIES} more polls)`,
    );
  }
  if (verdict.kind === "pending") {
    badRequests.count = 0;
    return { kind: "pending" };
  }
  throw new TinkerRequestError(`tinker request ${requestId} failed: ${verdict.reason}`);
}

/** Polls a future until done (its value), failed (throws) or expired (undefined: submit the request again). */
export async function awaitFuture(
  context: ClientContext,
  call: Call,
  requestId: string,
  accept: "json" | "protobuf",
  requestType: string,
): Promise<{ readonly value: unknown } | undefined> {
  let wait = context.settings.pollMs;
  const badRequests = { count: 0 };
  const iterations = { next: 0 };
  for (;;) {
    context.counts.polls++;
    const result = await call(
      "POST",
      "/api/v1/retrieve_future",
      { request_id: requestId, allow_metadata_only: false },
      { accept, deadlineMs: Infinity, requestType, iterations },
    );
    const outcome = pollOutcome(result, requestId, badRequests);
    if (outcome.kind === "done") return { value: outcome.value };
    if (outcome.kind === "expired") return undefined;
    // A 400 is polled again at once (the SDK's RETRY_IF_BUDGET); a pending future after the poll wait.
    if (!result.ok && result.verdict.kind === "bad-request") continue;
    await context.sleep(wait, context.signal);
    wait = Math.min(context.settings.maxPollMs, wait * 2);
  }
}
