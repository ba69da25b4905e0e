// Reaching Redis: the connection options BullMQ's queues and workers take from a redis:// (or rediss://) URL, and a
// probe that fails fast with one clear line when nothing answers there (BullMQ's own connections retry forever,
// which is right for a long-lived worker and wrong for a command that has not started yet).
import { Redis } from "ioredis";
import { ConfigError, DataError } from "../../core/errors.js";
import { withoutPassword } from "../../core/url-location.js";

export interface RedisConnectionOptions {
  readonly url: string;
  /** BullMQ's workers need commands to wait, not fail, while Redis is briefly away. */
  readonly maxRetriesPerRequest: null;
}

export function redisConnection(url: string): RedisConnectionOptions {
  if (!/^rediss?:\/\//i.test(url)) throw new ConfigError("redis", `expected a redis:// URL, got "${url}"`, "e.g. --redis redis://127.0.0.1:6379");
  return { url, maxRetriesPerRequest: null };
}

/** The URL without its password, as messages show it. */
export function redisLocation(url: string): string {
  return withoutPassword(url);
}

/** A plain client for our own keys (the set of active queues), failing fast when Redis cannot be reached. */
export async function connectRedis(url: string): Promise<Redis> {
  redisConnection(url);
  const client = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 1, connectTimeout: 5000, retryStrategy: () => null });
  client.on("error", () => undefined);
  try {
    await client.connect();
    await client.ping();
  } catch (error) {
    client.disconnect();
    throw new DataError(`cannot reach Redis at ${redisLocation(url)} (${(error as Error).message}): start it (redis-server), or check --redis`);
  }
  return client;
}
