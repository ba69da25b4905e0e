// A session's heartbeat, as the SDK 0.25.0 keeps one (internal_client_holder.py _session_heartbeat): every 10 s one
// POST /api/v1/session_heartbeat, one attempt with a 10 s timeout and outside the retrier (the SDK sends it with
// max_retries=0), the next beat 10 s after the last one ended, so that beats never pile up however long an outage
// lasts. When beats have failed for 2 minutes, one warning (the SDK repeats it every beat; once is enough to read),
// and one line when a beat is answered again after it. The timer never holds the process open.
import type { TinkerClient } from "./client.js";
import { formatWait } from "../core/wait-notice.js";

/** The SDK's period and the time allowed for one beat, in milliseconds. */
export const HEARTBEAT_MS = 10_000;
/** Misses this long before the warning (the SDK's SESSION_MISSED_HEARTBEAT_WARNING_THRESHOLD_SEC). */
export const HEARTBEAT_WARNING_MS = 120_000;

/** Starts beating every `periodMs` (0: none); the returned function stops it. `now` reads the clock (tests). */
export function startHeartbeat(
  client: TinkerClient,
  sessionId: string,
  periodMs = HEARTBEAT_MS,
  now: () => number = Date.now,
): () => void {
  if (periodMs <= 0) return () => undefined;
  let stopped = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let lastAnswered = now();
  let warned = false;
  const beat = async (): Promise<void> => {
    const answer = await client.probe(
      "/api/v1/session_heartbeat",
      { session_id: sessionId, type: "session_heartbeat" },
      Math.min(periodMs, HEARTBEAT_MS),
    );
    if (answer.ok) {
      if (warned)
        client.notice({ level: "info", message: `tinker: session ${sessionId}'s heartbeat is answered again` });
      lastAnswered = now();
      warned = false;
    } else if (!warned && now() - lastAnswered > HEARTBEAT_WARNING_MS) {
      warned = true;
      client.notice({
        level: "warning",
        message: `tinker: session ${sessionId}'s heartbeat has failed for ${formatWait(now() - lastAnswered)} (${answer.reason}); the connection may be unreliable or Tinker down, and the service ends a session it does not hear from`,
      });
    }
  };
  const schedule = (): void => {
    if (stopped) return;
    timer = setTimeout(() => {
      void beat()
        .catch(() => undefined)
        .finally(schedule);
    }, periodMs);
    timer.unref();
  };
  schedule();
  return () => {
    stopped = true;
    clearTimeout(timer);
  };
}
