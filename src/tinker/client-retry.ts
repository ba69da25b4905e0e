// The Tinker client's patience with one request: send it, and after a fault wait and send it again (the same
// X-Idempotency-Key every time) until it is answered or its faults in a row pass the deadline (backoff.ts: the SDK's
// waits and deadline); a bare 400 is retried while the client's budget lasts (faults.ts); a 402 pauses the run with a
// message until the server's limit, as the SDK does. A wait longer than a second is said once, as it starts, on the
// notice channel. Verdicts that are not faults (pending, bad-request, resubmit, fatal) go back to the caller.
import { afterFault, formatWait, newFaultRun, progressed, type FaultRun } from "./backoff.js";
import { TinkerRequestError, type Attempt, type ClientContext, type Exchange } from "./client-context.js";
import { sendAttempt } from "./client-exchange.js";
import { billingPause, BILLING_PAUSE, PROXY_400_RETRIES, type BillingPause } from "./faults.js";

/** Waits said on the notice channel are longer than this. */
export const NOTICE_WAIT_MS = 1000;

export type SendWithRetries = (exchange: Exchange) => Promise<Attempt>;

/** A fault of `reason`: wait as backoff.ts says (saying so when the wait is long), or throw past the deadline. */
export async function waitAfterFault(
  context: ClientContext,
  run: FaultRun,
  reason: string,
  retryAfterMs?: number,
): Promise<void> {
  const { settings, counts, options } = context;
  const decision = afterFault(run, context.now(), retryAfterMs, settings, context.rng);
  if (decision.action === "stop")
    throw new TinkerRequestError(
      `tinker request failed: ${reason}; still failing ${formatWait(decision.elapsedMs)} after the first fault (${run.count + 1} attempts), past the client's deadline of ${formatWait(settings.deadlineMs)}`,
    );
  if (decision.waitMs > NOTICE_WAIT_MS)
    context.notice({
      level: "warning",
      message: `tinker: ${reason}; trying again in ${formatWait(decision.waitMs)} (failing for ${formatWait(decision.elapsedMs)}; the client gives up after ${formatWait(settings.deadlineMs)})`,
    });
  options.onRetry?.({ attempt: run.count - 1, delayMs: decision.waitMs, reason });
  counts.retries++;
  counts.waitedMs += decision.waitMs;
  await context.sleep(decision.waitMs, options.signal);
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
    await context.sleep(BILLING_PAUSE.waitMs, context.options.signal);
  };

  return async (exchange) => {
    const key = exchange.method === "POST" ? context.idempotencyKey() : undefined;
    const run = newFaultRun();
    for (;;) {
      const result = await sendAttempt(context, exchange, key);
      if (result.ok) {
        proxyBudget = Math.min(PROXY_400_RETRIES, proxyBudget + 1);
        return result;
      }
      const { verdict } = result;
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
      await waitAfterFault(context, run, verdict.reason, result.retryAfterMs);
    }
  };
}
