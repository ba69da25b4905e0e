// KV-cache sessions kept between requests, so that a conversation's next turn prefills only its new tokens, as
// the in-process policy's episode session does (src/nn/kv-cache.ts). A session is found by what it caches: after
// a reply it holds the prompt and the reply's tokens but the last (prompt ++ reply[:-1]); the next request of
// that conversation replays its turn before (tiny/conversation.ts), so it knows those tokens and asks for the
// session that holds exactly them. A reply known only from its text ends with an end token whether it was
// sampled or cut, so both readings are asked for. What is not found gets a new session (a full prefill).
//
// Sessions only save work: the tokens a row samples depend on its prompt, its seed and the weights, not on
// what was cached (the cached and the prefilled paths agree to float rounding, and bit for bit on the
// development machine: bench/serve.ts and test/cli/serve.test.ts compare them with the in-process policy).
// Idle sessions are bounded (`capacity`, least recently used closed first; each holds a KV block of
// 2 x layers x context x dModel floats); a session in use belongs to one row until it is given back.
import { createHash } from "node:crypto";
import type { KvSession } from "../nn/kv-cache.js";
import { END } from "../nn/tokenizer.js";
import type { PreviousTurn } from "../policies/tiny/context.js";

export interface SessionPoolStats {
  readonly idle: number;
  /** Sessions handed out that held the conversation's turn before, and new ones. */
  readonly reused: number;
  readonly opened: number;
}

export interface SessionPool {
  /** The idle session that caches the turn before (taken out of the pool), else a new one; none with capacity 0. */
  take(previous: PreviousTurn | undefined): KvSession | undefined;
  /** Back into the pool, found by what it caches now (a closed session is dropped). */
  give(session: KvSession): void;
  stats(): SessionPoolStats;
}

function keyOf(tokens: readonly number[]): string {
  return createHash("sha256").update(Int32Array.from(tokens)).digest("hex");
}

/** What a session holds after the turn before: its prompt and reply but the reply's last token (two readings of a reply ending in an end token). */
export function cachedAfter(previous: PreviousTurn): number[][] {
  const { prompt, reply } = previous;
  const readings = [[...prompt, ...reply.slice(0, -1)]];
  if (reply.at(-1) === END && reply.length >= 2) readings.push([...prompt, ...reply.slice(0, -2)]);
  return readings;
}

export function createSessionPool(open: () => KvSession, capacity: number): SessionPool {
  const idle = new Map<string, KvSession>();
  let reused = 0;
  let opened = 0;
  return {
    take(previous) {
      if (capacity <= 0) return undefined;
      for (const tokens of previous === undefined ? [] : cachedAfter(previous)) {
        const key = keyOf(tokens);
        const found = idle.get(key);
        if (found === undefined) continue;
        idle.delete(key);
        reused++;
        return found;
      }
      opened++;
      return open();
    },
    give(session) {
      if (session.closed) return;
      const key = keyOf(session.cached);
      // Two sessions caching the same tokens: keep the newer one.
      idle.get(key)?.close();
      idle.delete(key);
      idle.set(key, session);
      if (idle.size > capacity) {
        const [oldestKey, oldest] = idle.entries().next().value as [string, KvSession];
        idle.delete(oldestKey);
        oldest.close();
      }
    },
    stats: () => ({ idle: idle.size, reused, opened }),
  };
}
