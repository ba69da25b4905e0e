// A run's jobs as its queue counts them (each run has its own queue, names.ts): queued (waiting, prioritized,
// delayed for a retry), running (held by a worker) and failed (attempts used up, or a job that cannot succeed);
// done episodes come from the store, where each is stored once.
import { Queue } from "bullmq";
import { connectRedis, redisConnection } from "./redis.js";

export interface QueueCounts {
  readonly queued: number;
  readonly running: number;
  readonly failed: number;
}

export async function queueCounts(queue: Queue): Promise<QueueCounts> {
  const counts = await queue.getJobCounts("waiting", "prioritized", "delayed", "active", "failed");
  return {
    queued: (counts["waiting"] ?? 0) + (counts["prioritized"] ?? 0) + (counts["delayed"] ?? 0),
    running: counts["active"] ?? 0,
    failed: counts["failed"] ?? 0,
  };
}

/** The counts of the run queues that exist among `queues` (for `budgetrl runs --redis`); looking adds nothing to
 * Redis (a queue that does not exist is not made). */
export async function runQueueCounts(redis: string, queues: readonly string[]): Promise<Map<string, QueueCounts>> {
  const out = new Map<string, QueueCounts>();
  const connection = redisConnection(redis);
  const client = await connectRedis(redis);
  try {
    for (const name of queues) {
      if ((await client.exists(`bull:${name}:meta`)) === 0) continue;
      const queue = new Queue(name, { connection });
      try {
        out.set(name, await queueCounts(queue));
      } finally {
        await queue.close();
      }
    }
  } finally {
    client.disconnect();
  }
  return out;
}
