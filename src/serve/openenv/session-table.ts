// The sessions `budgetrl env-server` holds (WebSocket connections and HTTP MCP sessions): at most --max-sessions,
// each with its last activity; one idle for --idle-timeout seconds is ended (its socket closed with code 4000) by a
// reaper that runs a few times per timeout.
import { randomUUID } from "node:crypto";
import type { ClientSession } from "./client-session.js";

export interface SessionTable {
  /** A new session's id, or null when the server is full (counted as refused). `end` closes what carries it. */
  admit(session: ClientSession, end: () => void): string | null;
  find(id: string): ClientSession | undefined;
  /** Note activity on a session. */
  touch(id: string): void;
  /** Close and forget a session (nothing when it is gone already). */
  release(id: string): boolean;
  readonly size: () => number;
  readonly peak: () => number;
  readonly refused: () => number;
  /** Stop the reaper and release every session. */
  close(): void;
}

interface Live {
  readonly session: ClientSession;
  lastActive: number;
  readonly end: () => void;
}

export function createSessionTable(maxSessions: number, idleTimeout: number): SessionTable {
  const live = new Map<string, Live>();
  const counts = { peak: 0, refused: 0 };
  const release = (id: string): boolean => {
    const entry = live.get(id);
    entry?.session.close();
    return live.delete(id);
  };
  const reaper =
    idleTimeout > 0
      ? setInterval(
          () => {
            const now = Date.now();
            for (const [id, entry] of live)
              if (now - entry.lastActive > idleTimeout * 1000) {
                entry.end();
                release(id);
              }
          },
          Math.max(20, Math.min(5000, (idleTimeout * 1000) / 4)),
        ).unref()
      : undefined;
  return {
    admit(session, end) {
      if (live.size >= maxSessions) {
        counts.refused++;
        return null;
      }
      const id = randomUUID();
      live.set(id, { session, lastActive: Date.now(), end });
      counts.peak = Math.max(counts.peak, live.size);
      return id;
    },
    find(id) {
      const entry = live.get(id);
      if (entry !== undefined) entry.lastActive = Date.now();
      return entry?.session;
    },
    touch(id) {
      const entry = live.get(id);
      if (entry !== undefined) entry.lastActive = Date.now();
    },
    release,
    size: () => live.size,
    peak: () => counts.peak,
    refused: () => counts.refused,
    close() {
      if (reaper !== undefined) clearInterval(reaper);
      for (const id of [...live.keys()]) release(id);
    },
  };
}
