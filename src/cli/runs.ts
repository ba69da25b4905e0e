// `budgetrl runs`: the runs in a store, one line each. With --redis, also the queue counts of runs executed with
// `eval --executor bullmq` on that Redis: episodes queued, running (held by a worker) and failed (attempts used
// up); done episodes are the stored ones. A run's queue is found from the store and the run's name, so the same
// --db as the eval's is needed (a path or URL naming the same store). A run without a queue (local, or finished:
// a finished run's queue is deleted) shows "-".
import { z } from "zod";
import { withStore } from "../store/open.js";
import { listRuns, type RunSummary } from "../store/runs.js";
import { renderTextTable } from "../report/text-table.js";
import { storeWaitFields, storeWaits } from "./store-flags.js";
import { defineCommand } from "./command.js";

const schema = z.object({
  db: z.string().min(1).default("budgetrl.db").describe("run store: an SQLite file, or a postgres:// URL"),
  ...storeWaitFields,
  redis: z
    .string()
    .min(1)
    .optional()
    .describe("Redis URL of `eval --executor bullmq`: add the queued, running and failed counts of each run"),
  json: z.boolean().default(false).describe("print as JSON"),
});

interface QueueColumns {
  readonly queued: number;
  readonly running: number;
  readonly failed: number;
}

async function queueColumns(
  redis: string,
  db: string,
  runs: readonly RunSummary[],
): Promise<Map<string, QueueColumns>> {
  const { runQueueCounts } = await import("../eval/bullmq/queue-counts.js");
  const { runQueueName, workerStoreAddress } = await import("../eval/bullmq/names.js");
  const address = workerStoreAddress(db);
  const names = new Map(runs.map((run) => [run.id, runQueueName(address, run.id)]));
  const counts = await runQueueCounts(redis, [...names.values()]);
  return new Map(
    runs.flatMap((run) => {
      const found = counts.get(names.get(run.id) as string);
      return found === undefined ? [] : [[run.id, found] as const];
    }),
  );
}

export const runsCommand = defineCommand({
  name: "runs",
  summary: "List the runs in a store (with --redis: their queued, running and failed episode jobs).",
  schema,
  examples: [
    "budgetrl runs --db runs.db",
    "budgetrl runs --db postgres://me@db-host/budgetrl --redis redis://queue-host:6379",
  ],
  async run(options, io) {
    const runs = await withStore(options.db, { mode: "read", ...storeWaits("runs", options, io) }, listRuns);
    const queues = options.redis === undefined ? undefined : await queueColumns(options.redis, options.db, runs);
    if (options.json) {
      io.stdout(
        `${JSON.stringify(queues === undefined ? runs : runs.map((run) => ({ ...run, queue: queues.get(run.id) })), null, 2)}\n`,
      );
      return 0;
    }
    if (runs.length === 0) {
      io.stdout(`no runs in ${options.db}\n`);
      return 0;
    }
    const rows = runs.map((run) => {
      const queue = queues?.get(run.id);
      return [
        run.id,
        run.env,
        run.policy,
        String(run.seed),
        String(run.episodes),
        run.episodes === 0 ? "-" : (run.successes / run.episodes).toFixed(3),
        String(run.errors),
        String(run.contextLength),
        ...(queues === undefined
          ? []
          : queue === undefined
            ? ["-", "-", "-"]
            : [String(queue.queued), String(queue.running), String(queue.failed)]),
        run.status,
        run.createdAt.slice(0, 19).replace("T", " "),
      ];
    });
    const queueHeads = queues === undefined ? [] : ["queued", "running", "failed"];
    io.stdout(
      `${renderTextTable(["run", "env", "policy", "seed", "episodes", "success", "errors", "context-length", ...queueHeads, "status", "created"], rows)}\n`,
    );
    return 0;
  },
});
