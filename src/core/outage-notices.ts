// What a client says while a service it depends on fails (a Tinker endpoint, a model server), for all its requests
// to it together (the 64 requests in flight of a batch fail together when the service does): one line as the faults
// start, one a minute while they go on, one when the service answers again. Waits are counted by the client, not
// each said. Pure of I/O: the lines go to the caller's `notice`.
import { formatWait } from "./wait-notice.js";

/** A message about a service or the connection to it, for the user. */
export interface ServiceNotice {
  readonly level: "info" | "warning" | "error";
  readonly message: string;
}

/** Lines said while faults go on: at most one per this many milliseconds. */
export const OUTAGE_NOTICE_EVERY_MS = 60_000;

export interface OutageNotices {
  /** A request to `target` failed (`reason`) and will be sent again: said as an outage starts, and once a minute. */
  fault(target: string, reason: string, patience: string): void;
  /** A request to `target` was answered: said once when an outage of it that was said ends. */
  answered(target: string): void;
}

interface Outage {
  readonly since: number;
  lastSaid: number;
  faults: number;
}

/** Outage lines of one client, each starting with `service` ("tinker", "openai"). */
export function outageNotices(
  service: string,
  now: () => number,
  notice: (notice: ServiceNotice) => void,
): OutageNotices {
  const outages = new Map<string, Outage>();
  return {
    fault(target, reason, patience) {
      const at = now();
      const outage = outages.get(target);
      if (outage === undefined) {
        outages.set(target, { since: at, lastSaid: at, faults: 1 });
        notice({ level: "warning", message: `${service}: ${reason}; retrying (${patience})` });
        return;
      }
      outage.faults++;
      if (at - outage.lastSaid < OUTAGE_NOTICE_EVERY_MS) return;
      outage.lastSaid = at;
      notice({
        level: "warning",
        message: `${service}: still failing after ${formatWait(at - outage.since)} (${outage.faults} faults): ${reason}; retrying`,
      });
    },
    answered(target) {
      const outage = outages.get(target);
      if (outage === undefined) return;
      outages.delete(target);
      notice({
        level: "info",
        message: `${service}: ${target} answers again (after ${formatWait(now() - outage.since)} of faults)`,
      });
    },
  };
}
