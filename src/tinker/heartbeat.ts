// A session's heartbeat, as the SDK keeps one (every 10 s by default): a timer that tells the server the session is
// alive, its failures ignored (the next beat tries again), never holding the process open.
import type { TinkerClient } from "./client.js";
import * as api from "./operations.js";

/** The SDK's period, in milliseconds. */
export const HEARTBEAT_MS = 10_000;

/** Starts beating every `periodMs` (0: none); the returned function stops it. */
export function startHeartbeat(client: TinkerClient, sessionId: string, periodMs = HEARTBEAT_MS): () => void {
  if (periodMs <= 0) return () => undefined;
  const timer = setInterval(() => void api.heartbeat(client, sessionId).catch(() => undefined), periodMs);
  timer.unref();
  return () => clearInterval(timer);
}
