// How a `budgetrl worker` tells of a lost Redis: once when it is lost, then one line per reconnection attempt with
// the pause before the next (growing: RETRY_PAUSES_MS), and once when it is back, with how long it was away, instead
// of an error line from every connection at every attempt (the worker holds two connections of its own and two per
// BullMQ queue, each retrying on its own). The worker's own client drives the lines (its retryStrategy is
// `retryStrategy` here, its "ready" is `ready()`); the errors of the other connections only update the reason.
// Clock injected.

/** What the watch tells. */
export type RedisWatchEvent =
  | { readonly kind: "redis-lost"; readonly reason: string; readonly nextMs: number }
  | { readonly kind: "redis-retry"; readonly attempt: number; readonly reason: string; readonly nextMs: number }
  | { readonly kind: "redis-back"; readonly afterMs: number; readonly attempts: number };

/** The pause before reconnection attempt n (1-based): doubling from a quarter second up to ten seconds. */
export function retryPauseMs(attempt: number): number {
  return Math.min(250 * 2 ** Math.max(0, attempt - 1), 10_000);
}

export interface RedisWatch {
  /** ioredis's retryStrategy for the client that drives the lines (attempts count from 1 after each loss). */
  retryStrategy(times: number): number;
  /** The pauses of the other connections: the same, silent. */
  quietStrategy(times: number): number;
  /** A connection error of any connection: the reason the next line gives. */
  noteError(error: Error): void;
  /** The driving client is ready (first connection, or back after a loss). */
  ready(): void;
}

/** Errors that only say the connection is down (their lines are the watch's, not their own). */
export function isConnectionError(error: Error): boolean {
  const code = (error as Error & { code?: unknown }).code;
  if (
    typeof code === "string" &&
    /^(ECONNREFUSED|ECONNRESET|ETIMEDOUT|EPIPE|EHOSTUNREACH|ENETUNREACH|ENOTFOUND|EAI_AGAIN)$/.test(code)
  )
    return true;
  return /^(Connection is closed|connect (ECONNREFUSED|ETIMEDOUT)|read ECONNRESET|write EPIPE|Socket closed unexpectedly)/.test(
    error.message,
  );
}

export function createRedisWatch(emit: (event: RedisWatchEvent) => void, now: () => number = Date.now): RedisWatch {
  let lostAt: number | undefined;
  let tried = 0;
  let reason = "connection closed";
  return {
    retryStrategy(times) {
      const nextMs = retryPauseMs(times);
      // Called before each attempt: the first time when the loss is found, then after each failed attempt.
      if (lostAt === undefined) {
        lostAt = now();
        emit({ kind: "redis-lost", reason, nextMs });
      } else emit({ kind: "redis-retry", attempt: times - 1, reason, nextMs });
      tried = times;
      return nextMs;
    },
    quietStrategy: retryPauseMs,
    noteError(error) {
      reason = error.message.replace(/\s+/g, " ").trim() || reason;
    },
    ready() {
      if (lostAt === undefined) return;
      emit({ kind: "redis-back", afterMs: now() - lostAt, attempts: tried });
      lostAt = undefined;
      reason = "connection closed";
    },
  };
}
