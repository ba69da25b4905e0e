// Names on the queue side of a run executed with BullMQ. Every run gets its own queue, named from a hash of (where
// its store is, the run's name), so runs of different stores never share one and the queue's counts are the run's
// (queued, running, failed) without scanning. One job per episode, its id derived from (run, task index, budget
// label, sample): BullMQ ids must not contain ":", so the label is percent-encoded and the parts joined with "|".
// The queues of runs being executed are listed in a Redis set (and announced on a channel of the same name), from
// which `budgetrl worker` processes learn which queues to take jobs from.
import { createHash } from "node:crypto";
import { resolve } from "node:path";
import { isPostgresUrl, postgresLocation } from "../../store/postgres/url.js";

/** The Redis set (and pub/sub channel) of the queues that workers serve. */
export const ACTIVE_QUEUES_KEY = "budgetrl:queues";

/** How workers reach a store: an SQLite file by its absolute path, a PostgreSQL URL without its password (the
 * workers take it from PGPASSWORD or ~/.pgpass in their own environment). */
export function workerStoreAddress(db: string): string {
  return isPostgresUrl(db) ? postgresLocation(db) : resolve(db);
}

/** The queue of a run (a store address from `workerStoreAddress`). */
export function runQueueName(storeAddress: string, run: string): string {
  return `budgetrl-${createHash("sha256").update(`${storeAddress}\u0000${run}`).digest("hex").slice(0, 20)}`;
}

/** The job id of an episode: "QUEUE|TASK|LABEL|SAMPLE" with the label percent-encoded (no ":" anywhere). */
export function episodeJobId(queue: string, taskIndex: number, budgetLabel: string, sample: number): string {
  return `${queue}|${taskIndex}|${encodeURIComponent(budgetLabel)}|${sample}`;
}
