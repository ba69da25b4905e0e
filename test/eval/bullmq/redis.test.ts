// The eval's bounded reconnection to Redis (redis.ts): attempts go on, a little apart, while a loss is younger than
// the time allowed; then, or at once after a stop signal, the connection gives up and the loss is reported as one
// ConnectionLostError naming Redis without the URL's password; a loss that lasts a second is said once, for all the
// connections it cut. Which command failures mean a lost connection.
import { afterEach, describe, expect, it, vi } from "vitest";
import { ConnectionLostError, DataError } from "../../../src/core/errors.js";
import { boundedReconnect, isRedisConnectionLoss } from "../../../src/eval/bullmq/redis.js";

describe("boundedReconnect", () => {
  it("tries again, at most a second apart, while the loss is younger than the time allowed", () => {
    const bounded = boundedReconnect("redis://127.0.0.1:6390", 60_000);
    const strategy = bounded.strategy();
    expect([1, 2, 5, 30].map(strategy)).toEqual([100, 200, 500, 1000]);
    expect(bounded.lost()).toBeUndefined();
  });

  it("gives up once the loss is older than the time allowed, reporting the last connection error", () => {
    const bounded = boundedReconnect("redis://:secret@127.0.0.1:6390", 0);
    bounded.noteError(new Error("connect ECONNREFUSED 127.0.0.1:6390"));
    expect(bounded.strategy()(1)).toBeNull();
    const lost = bounded.lost();
    expect(lost).toBeInstanceOf(ConnectionLostError);
    expect(lost?.service).toBe("Redis");
    expect(lost?.message).toBe(
      "lost the connection to Redis at redis://127.0.0.1:6390 and it did not come back within 0 s (connect ECONNREFUSED 127.0.0.1:6390)",
    );
  });

  it("gives up at the next attempt once the run is stopped", () => {
    const stop = new AbortController();
    const bounded = boundedReconnect("redis://127.0.0.1:6390", 60_000, stop.signal);
    const strategy = bounded.strategy();
    expect(strategy(1)).toBe(100);
    stop.abort();
    expect(strategy(2)).toBeNull();
    expect(bounded.lost()).toBeInstanceOf(ConnectionLostError);
  });
});

describe("boundedReconnect's wait line", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it("is said once a loss lasted a second, once for every connection it cut, and not for a shorter one", () => {
    vi.useFakeTimers();
    const lines: string[] = [];
    const bounded = boundedReconnect("redis://:secret@127.0.0.1:6390", 30_000, undefined, (line) => lines.push(line));
    const [queue, client] = [bounded.strategy(), bounded.strategy()];
    bounded.noteError(new Error("connect ECONNREFUSED 127.0.0.1:6390"));
    queue(1);
    client(1);
    vi.advanceTimersByTime(999);
    queue(2);
    expect(lines).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(lines).toEqual([
      "lost the connection to Redis at redis://127.0.0.1:6390 (connect ECONNREFUSED 127.0.0.1:6390); trying again for up to 30 s in all (--reconnect-timeout), then giving up",
    ]);
    vi.advanceTimersByTime(10_000);
    client(5);
    expect(lines).toHaveLength(1);
    // Back, then lost again for less than a second: nothing more.
    bounded.back();
    queue(1);
    vi.advanceTimersByTime(500);
    bounded.back();
    vi.advanceTimersByTime(5_000);
    expect(lines).toHaveLength(1);
  });
});

describe("isRedisConnectionLoss", () => {
  it("is true for commands cut or failed by a lost connection, false for other errors and for our own", () => {
    const aborted = Object.assign(new Error("Command aborted due to connection close"), { name: "AbortError" });
    expect(isRedisConnectionLoss(aborted)).toBe(true);
    expect(isRedisConnectionLoss(new Error("Connection is closed."))).toBe(true);
    expect(isRedisConnectionLoss(new Error("WRONGTYPE Operation against a key holding the wrong kind of value"))).toBe(
      false,
    );
    expect(isRedisConnectionLoss(new DataError("Connection is closed."))).toBe(false);
    expect(isRedisConnectionLoss("Connection is closed.")).toBe(false);
  });
});
