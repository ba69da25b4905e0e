// How a worker tells of a lost Redis (redis-watch.ts): the loss once, a line per failed attempt with the growing pause
// before the next, the recovery once with how long it took; the other connections' errors only give the reason; a
// second loss is told again; which errors only say that the connection is down.
import { describe, expect, it } from "vitest";
import {
  createRedisWatch,
  isConnectionError,
  retryPauseMs,
  type RedisWatchEvent,
} from "../../../src/eval/bullmq/redis-watch.js";

const refused = (): Error => Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:6390"), { code: "ECONNREFUSED" });

describe("createRedisWatch", () => {
  it("tells the loss once, each failed attempt with its backoff, and the recovery once", () => {
    const events: RedisWatchEvent[] = [];
    let now = 1000;
    const watch = createRedisWatch(
      (event) => events.push(event),
      () => now,
    );
    watch.ready();
    expect(events).toEqual([]);
    expect(watch.retryStrategy(1)).toBe(250);
    for (const times of [2, 3, 4]) {
      watch.noteError(refused());
      // Another connection's pauses: silent.
      watch.quietStrategy(times);
      now += retryPauseMs(times - 1);
      watch.retryStrategy(times);
    }
    now += 1000;
    watch.ready();
    expect(events).toEqual([
      { kind: "redis-lost", reason: "connection closed", nextMs: 250 },
      { kind: "redis-retry", attempt: 1, reason: "connect ECONNREFUSED 127.0.0.1:6390", nextMs: 500 },
      { kind: "redis-retry", attempt: 2, reason: "connect ECONNREFUSED 127.0.0.1:6390", nextMs: 1000 },
      { kind: "redis-retry", attempt: 3, reason: "connect ECONNREFUSED 127.0.0.1:6390", nextMs: 2000 },
      { kind: "redis-back", afterMs: 2750, attempts: 4 },
    ]);
    // A second loss is a new one.
    events.length = 0;
    watch.retryStrategy(1);
    watch.ready();
    expect(events.map((event) => event.kind)).toEqual(["redis-lost", "redis-back"]);
  });

  it("backs off from a quarter second, doubling, up to ten seconds", () => {
    expect([1, 2, 3, 4, 5, 6, 7, 8, 20].map(retryPauseMs)).toEqual([
      250, 500, 1000, 2000, 4000, 8000, 10_000, 10_000, 10_000,
    ]);
  });
});

describe("isConnectionError", () => {
  it("knows the errors of a connection that is down from others", () => {
    expect(isConnectionError(refused())).toBe(true);
    expect(isConnectionError(new Error("Connection is closed."))).toBe(true);
    expect(isConnectionError(Object.assign(new Error("read ECONNRESET"), { code: "ECONNRESET" }))).toBe(true);
    expect(isConnectionError(new Error("Missing lock for job 12. moveToFinished"))).toBe(false);
    expect(isConnectionError(new Error("ERR unknown command"))).toBe(false);
  });
});
