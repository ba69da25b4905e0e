// How long the Tinker client waits after a fault, and how long it keeps trying (pure functions), after the Tinker
// SDK 0.25.0 (commit d595dc2ba62a):
//   one wait       min(backoffMs * 2^n, maxBackoffMs) * (1 - 0.25 u) for the n-th fault in a row, u uniform in [0, 1)
//                  from the client's seeded generator: _base_client.py _calculate_retry_timeout (0.5 s doubled, minus
//                  up to a quarter); the cap is that of lib/internal_client_holder.py execute_with_retries (30 s), the
//                  loop that wraps every submission. A Retry-After (retry-after-ms, retry-after in seconds or as a
//                  date) above 0 and at most 60 s is waited as given, as _calculate_retry_timeout does.
//   the deadline   a request keeps trying while its faults in a row have lasted less than deadlineMs: default 300 s,
//                  execute_with_retries' MAX_WAIT_TIME (time since its first attempt; the SDK stops retrying once it
//                  has passed). The last wait is cut to end at the deadline; a fault after it ends the request. Any
//                  answer that shows progress (a result, a future still pending) starts a new window, as a recovered
//                  server resets the SDK's connection backoff (api_future_impl.py).
// Not copied: the SDK's sampling clients retry for up to 2 hours without progress (retry_handler.py
// progress_timeout); here every request has the one deadline, which a caller may raise.
import type { Rng } from "../core/rng.js";

export interface Patience {
  /** First wait after a fault, doubled at every fault in a row. */
  readonly backoffMs: number;
  /** Longest wait after a fault (a Retry-After of up to 60 s is waited as given). */
  readonly maxBackoffMs: number;
  /** How long one request's faults in a row may last before it fails. */
  readonly deadlineMs: number;
}

/** The SDK's numbers (see the header). */
export const SDK_PATIENCE: Patience = { backoffMs: 500, maxBackoffMs: 30_000, deadlineMs: 300_000 };

/** The longest Retry-After waited as given (the SDK's `0 < retry_after <= 60`). */
export const RETRY_AFTER_LIMIT_MS = 60_000;

/** The wait after the `attempt`-th fault in a row (0-based). */
export function backoffWait(attempt: number, retryAfterMs: number | undefined, patience: Patience, rng: Rng): number {
  if (retryAfterMs !== undefined && retryAfterMs > 0 && retryAfterMs <= RETRY_AFTER_LIMIT_MS) return retryAfterMs;
  const full = Math.min(patience.maxBackoffMs, patience.backoffMs * 2 ** Math.min(attempt, 30));
  return full * (1 - 0.25 * rng.next());
}

/** One request's faults in a row: when the first came (undefined: none since the last progress) and how many. */
export interface FaultRun {
  first: number | undefined;
  count: number;
}

export function newFaultRun(): FaultRun {
  return { first: undefined, count: 0 };
}

export type FaultDecision =
  | { readonly action: "wait"; readonly waitMs: number; readonly elapsedMs: number }
  | { readonly action: "stop"; readonly elapsedMs: number };

/** What to do about a fault at `now`: wait (at most until the deadline), or stop once the deadline has passed. */
export function afterFault(
  run: FaultRun,
  now: number,
  retryAfterMs: number | undefined,
  patience: Patience,
  rng: Rng,
): FaultDecision {
  run.first ??= now;
  const elapsedMs = now - run.first;
  if (elapsedMs >= patience.deadlineMs) return { action: "stop", elapsedMs };
  const waitMs = Math.min(backoffWait(run.count, retryAfterMs, patience, rng), patience.deadlineMs - elapsedMs);
  run.count++;
  return { action: "wait", waitMs, elapsedMs };
}

/** An answer that shows progress: the next fault starts a new window. */
export function progressed(run: FaultRun): void {
  run.first = undefined;
  run.count = 0;
}
