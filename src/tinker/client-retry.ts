// The Tinker client's patience with one request: send it, and after a fault wait and send it again (the same
// X-Idempotency-Key every time) until it is answered or its faults in a row pass its deadline (backoff.ts: the SDK's
// waits; the deadline is the exchange's: the client's 5 minutes, sampling's 2 hours, none for a future's polls); a
// bare 400 is retried while the client's budget lasts (faults.ts); a 402 pauses the run with a message until the
// server's limit, as the SDK does; a 429 to a sampling submission (the service's backpressure) is waited out,
// 1 s at a time or its Retry-After, without counting toward the deadline (sampling_client.py). An outage is said on
// the notice channel once as it starts, once a minute while it lasts and once when it ends (core/outage-notices.ts), whatever
// number of requests wait through it. Verdicts that are not faults (pending, bad-request, resubmit, fatal) go back
// to the caller; an exchange marked `once` (a heartbeat) is sent once, its fault going back too.
import { formatWait } from "../core/wait-notice.js";
import { afterFault, newFaultRun, progressed, type FaultRun } from "./backoff.js";
import { TinkerRequestError, type Attempt, type ClientContext, type Exchange } from "./client-context.js";
import { sendAttempt } from "./client-exchange.js";
import { billingPause, BILLING_PAUSE, PROXY_400_RETRIES, type BillingPause } from "./faults.js";

/** The wait after a 429 to a sampling submission without a Retry-After (the SDK's, for prompts to 128 KiB). */
export const BACKPRESSURE_WAIT_MS = 1000;

export type SendWithRetries = (exchange: Exchange) => Promise<Attempt>;

/** A fault of `reason`: wait as backoff.ts says (the outage said, core/outage-notices.ts), or throw past the deadline. */
export async function waitAfterFault(
  context: ClientContext,
  run: FaultRun,
  path: string,
  reason: string,
  retryAfterMs?: number,
  deadlineMs = context.settings.deadlineMs,
): Promise<void> {
  const { settings, counts, options } = context;
  const patience = { ...settings, deadlineMs };
  const decision = afterFault(run, context.now(), retryAfterMs, patience, context.rng);
  if (decision.action === "stop")
    throw new TinkerRequestError(
      `tinker request failed: ${reason}; still failing ${formatWait(decision.elapsedMs)} after the first fault (${run.count + 1} attempts), past the client's deadline of ${formatWait(deadlineMs)}`,
    );
  context.outage.fault(
    path,
    reason,
    deadlineMs === Infinity
      ? "a future is polled while the service keeps it"
      : `a request gives up after ${formatWait(deadlineMs)} of faults`,
  );
  options.onRetry?.({ attempt: run.count - 1, delayMs: decision.waitMs, reason });
  counts.retries++;
  counts.waitedMs += decision.waitMs;
  await context.sleep(decision.waitMs, context.signal);
}

/** The retrying sender of one client; `billingLimitMs` is the server's longest billing pause (its client config). */
export function createRetrier(context: ClientContext, billingLimitMs: () => number): SendWithRetries {
  const pause: BillingPause = { first: undefined, lastNotice: undefined, last: undefined };
  let proxyBudget = PROXY_400_RETRIES;

  /** A 402: wait 5 s (saying so now and then), or give up once the pause passes the server's limit. */
  const pauseFor = async (reason: string): Promise<void> => {
    const limitMs = billingLimitMs();
    const decision = billingPause(pause, context.now(), limitMs);
    if (decision.action === "stop")
      throw new TinkerRequestError(
        `${reason}: the job was paused for billing for ${Math.round(decision.pausedMs / 1000)} s, longer than the server allows (${limitMs / 1000} s)`,
      );
    if (decision.notice)
      context.notice({
        level: "warning",
        message: `tinker: the job is paused because of its billing status (${reason}); it goes on when the server accepts requests again`,
      });
    context.counts.pauses++;
    await context.sleep(BILLING_PAUSE.waitMs, context.signal);
  };

  return async (exchange) => {
    const key = exchange.method === "POST" ? context.idempotencyKey() : undefined;
    const run = newFaultRun();
    for (let retries = 0; ; retries++) {
      const result = await sendAttempt(context, exchange, key, retries);
      if (result.ok || !["retry", "proxy-400", "pause"].includes(result.verdict.kind))
        context.outage.answered(exchange.path);
      if (result.ok) {
        proxyBudget = Math.min(PROXY_400_RETRIES, proxyBudget + 1);
        return result;
      }
      if (exchange.once === true) return result;
      const { verdict } = result;
      if (exchange.backpressure === true && result.status === 429) {
        // The service asks sampling to slow down: wait and send again, as the SDK does, with no deadline.
        context.counts.retries++;
        await context.sleep(result.retryAfterMs ?? BACKPRESSURE_WAIT_MS, context.signal);
        continue;
      }
      if (verdict.kind === "pause") {
        await pauseFor(verdict.reason);
        // A billing pause has its own limit: faults before it do not count against the deadline after it.
        progressed(run);
        continue;
      }
      if (verdict.kind === "proxy-400") {
        if (proxyBudget <= 0)
          return {
            ...result,
            verdict: {
              kind: "fatal",
              reason: `${verdict.reason} (${PROXY_400_RETRIES} such answers without a success)`,
            },
          };
        proxyBudget--;
      } else if (verdict.kind !== "retry") return result;
      await waitAfterFault(context, run, exchange.path, verdict.reason, result.retryAfterMs, exchange.deadlineMs);
    }
  };
}
