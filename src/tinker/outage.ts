// What the Tinker client says about an outage of an endpoint, for all its requests to it together (the 64 polls
// in flight of a sampling batch fail together when the service does): one line when faults start, one a minute
// while they go on, one when the endpoint answers again. Heartbeats say their own (heartbeat.ts); waits are
// counted in the stats, not each said.
import { formatWait } from "./backoff.js";

/** A message from the server or about the connection, for the user (session warnings, waits, billing pauses). */
export interface TinkerNotice {
  readonly level: "info" | "warning" | "error";
  readonly message: string;
}

/** Lines said while faults go on: at most one per this many milliseconds. */
export const OUTAGE_NOTICE_EVERY_MS = 60_000;

export interface OutageNotices {
  /** A request to `path` failed (`reason`) and will be sent again: said as an outage starts, and once a minute. */
  fault(path: string, reason: string, patience: string): void;
  /** A request to `path` was answered: said once when an outage of it that was said ends. */
  answered(path: string): void;
}

interface Outage {
  readonly since: number;
  lastSaid: number;
  faults: number;
}

export function outageNotices(now: () => number, notice: (notice: TinkerNotice) => void): OutageNotices {
  const outages = new Map<string, Outage>();
  return {
    fault(path, reason, patience) {
      const at = now();
      const outage = outages.get(path);
      if (outage === undefined) {
        outages.set(path, { since: at, lastSaid: at, faults: 1 });
        notice({ level: "warning", message: `tinker: ${reason}; retrying (${patience})` });
        return;
      }
      outage.faults++;
      if (at - outage.lastSaid < OUTAGE_NOTICE_EVERY_MS) return;
      outage.lastSaid = at;
      notice({
        level: "warning",
        message: `tinker: still failing after ${formatWait(at - outage.since)} (${outage.faults} faults): ${reason}; retrying`,
      });
    },
    answered(path) {
      const outage = outages.get(path);
      if (outage === undefined) return;
      outages.delete(path);
      notice({
        level: "info",
        message: `tinker: ${path} answers again (after ${formatWait(now() - outage.since)} of faults)`,
      });
    },
  };
}
