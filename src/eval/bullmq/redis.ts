// Reaching Redis: the connection options BullMQ's queues and workers take from a redis:// (or rediss://) URL, and a
// probe that fails fast with one clear line when nothing answers there (BullMQ's own connections retry forever,
// which is right for a long-lived worker and wrong for a command that has not started yet). An eval's connections
// reconnect within bounds (`boundedReconnect`): a Redis lost mid-run is waited for, up to --reconnect-timeout, then
// the connections give up, their commands fail, and the eval stops with one line (ConnectionLostError); a loss that
// lasts a second is announced in one line (wait-notice.ts).
import { Redis } from "ioredis";
import { BudgetrlError, ConfigError, ConnectionLostError, DataError, thrownMessage } from "../../core/errors.js";
import { withoutPassword } from "../../core/url-location.js";
import { secondsText, startWait, type Wait, type WaitListener } from "../../core/wait-notice.js";

export interface RedisConnectionOptions {
  readonly url: string;
  /** BullMQ's workers need commands to wait, not fail, while Redis is briefly away. */
  readonly maxRetriesPerRequest: null;
}

export function redisConnection(url: string): RedisConnectionOptions {
  if (!/^rediss?:\/\//i.test(url))
    throw new ConfigError("redis", `expected a redis:// URL, got "${url}"`, "e.g. --redis redis://127.0.0.1:6379");
  return { url, maxRetriesPerRequest: null };
}

/** The URL without its password, as messages show it. */
export function redisLocation(url: string): string {
  return withoutPassword(url);
}

/** A plain client for our own keys (the set of active queues), failing fast when Redis cannot be reached. */
export async function connectRedis(url: string): Promise<Redis> {
  redisConnection(url);
  const client = new Redis(url, {
    lazyConnect: true,
    maxRetriesPerRequest: 1,
    connectTimeout: 5000,
    retryStrategy: () => null,
  });
  client.on("error", () => undefined);
  try {
    await client.connect();
    await client.ping();
  } catch (error) {
    client.disconnect();
    throw new DataError(
      `cannot reach Redis at ${redisLocation(url)} (${thrownMessage(error)}): start it (redis-server), or check --redis`,
    );
  }
  return client;
}

/** True for a command that failed because its connection went away: ioredis aborts the pipelines and transactions
 * in flight when a connection closes (AbortError) and does not send them again, and fails what waits once it gives
 * up ("Connection is closed."). Worth sending again once the connection is back. */
export function isRedisConnectionLoss(error: unknown): boolean {
  if (!(error instanceof Error) || error instanceof BudgetrlError) return false;
  return error.name === "AbortError" || error.message.startsWith("Connection is closed");
}

/** The longest pause between two reconnection attempts (ms). */
const MAX_RECONNECT_PAUSE_MS = 1000;

/** Reconnection of the connections of one command (ioredis's retryStrategy, one per connection) that gives up when
 * a loss lasted `reconnectMs`, or at the next attempt once `signal` aborted. */
export interface BoundedReconnect {
  /** A retryStrategy for one more connection. */
  strategy(): (times: number) => number | null;
  /** Remember the latest connection error (the reason a loss is reported with). */
  noteError(error: Error): void;
  /** A connection is ready again: the loss is over (its line, if not said yet, never is). */
  back(): void;
  /** The error to report once a connection gave up; undefined while none did. */
  lost(): ConnectionLostError | undefined;
}

export function boundedReconnect(
  url: string,
  reconnectMs: number,
  signal?: AbortSignal,
  onWait?: WaitListener,
): BoundedReconnect {
  let lost: ConnectionLostError | undefined;
  let reason = "connection lost";
  // One wait for every connection cut by one loss.
  let wait: Wait | undefined;
  const over = (): void => {
    wait?.end();
    wait = undefined;
  };
  return {
    strategy() {
      let lostAt = 0;
      return (times) => {
        // ioredis counts attempts from 1 after each loss (the count restarts when a connection is ready again).
        if (times === 1) lostAt = performance.now();
        const waited = performance.now() - lostAt;
        if (waited < reconnectMs && signal?.aborted !== true) {
          wait ??= startWait(
            onWait,
            () =>
              `lost the connection to Redis at ${redisLocation(url)} (${reason.replace(/\s+/g, " ").trim()}); trying again for up to ${secondsText(reconnectMs)} in all (--reconnect-timeout), then giving up`,
          );
          return Math.min(100 * times, MAX_RECONNECT_PAUSE_MS);
        }
        over();
        lost ??= new ConnectionLostError("Redis", redisLocation(url), waited, reason);
        return null;
      };
    },
    noteError(error) {
      reason = error.message;
    },
    back: over,
    lost: () => lost,
  };
}
