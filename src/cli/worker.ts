// `budgetrl worker`: a process that plays episodes of any run executed with `eval --executor bullmq`: it takes
// their jobs from the BullMQ queues in Redis, rebuilds each run from its store and stores the episodes. Start as
// many as you like, on any machine that reaches Redis and the stores (an SQLite store: the same file, so the same
// machine; PostgreSQL: anywhere). Ctrl-C / SIGTERM stop taking jobs and wait for the episodes in flight (a second
// signal quits at once: those jobs are retried by the other workers when their locks expire).
import { hostname } from "node:os";
import { z } from "zod";
import type { WorkerEvent } from "../eval/bullmq/worker.js";
import { secondsText } from "../core/wait-notice.js";
// The policy kind tinker: (its client loads when a run plays one).
import "../tinker/policy-kind.js";
import { defineCommand, type CliIo } from "./command.js";

const schema = z.object({
  redis: z.string().min(1).describe("Redis URL of the queues, as given to `eval --executor bullmq --redis`"),
  concurrency: z.number().int().min(1).max(1024).default(4).describe("episodes in flight at once, across all runs"),
  name: z.string().min(1).optional().describe("the name this worker's jobs show (default: HOST-PID)"),
  lockDuration: z
    .number()
    .int()
    .min(1000)
    .max(3_600_000)
    .default(30_000)
    .describe(
      "ms a job stays locked without this worker renewing it; the jobs of a worker that died are retried after that",
    ),
  stalledInterval: z
    .number()
    .int()
    .min(100)
    .max(3_600_000)
    .default(30_000)
    .describe("ms between checks for jobs whose worker died"),
  verbose: z.boolean().default(false).describe("print a line per episode"),
});

function describeEvent(event: WorkerEvent, verbose: boolean, redis: string): string | undefined {
  if (event.kind === "waiting") return event.line;
  if (event.kind === "redis-lost")
    return `lost the connection to Redis at ${redis} (${event.reason}); trying again in ${secondsText(event.nextMs)}, then less and less often (up to every 10 s) until it is back`;
  if (event.kind === "redis-retry")
    return `Redis at ${redis}: attempt ${event.attempt} failed (${event.reason}); next in ${secondsText(event.nextMs)}`;
  if (event.kind === "redis-back")
    return `Redis at ${redis} is back after ${secondsText(event.afterMs)} (${event.attempts} attempt${event.attempts === 1 ? "" : "s"}); taking jobs again`;
  if (event.kind === "queue-added") return `taking jobs from ${event.queue}`;
  if (event.kind === "queue-removed") return `${event.queue} is no longer executed`;
  if (event.kind === "episode-done")
    return verbose ? `${event.job}: ${event.stopReason}${event.written ? "" : " (already stored)"}` : undefined;
  if (event.kind === "episode-failed")
    return `${event.job} failed${event.final ? "" : " (to be retried)"}: ${event.reason.split("\n")[0] ?? ""}`;
  return `error: ${event.message}`;
}

function waitForStop(signal: AbortSignal): Promise<void> {
  return new Promise((resolve) =>
    signal.aborted ? resolve() : signal.addEventListener("abort", () => resolve(), { once: true }),
  );
}

export const workerCommand = defineCommand({
  name: "worker",
  summary: "Play the episodes of runs executed with --executor bullmq: take their jobs from Redis, store the episodes.",
  description:
    "Runs until Ctrl-C or SIGTERM, then stops taking jobs and waits for the episodes in flight. Each run is rebuilt from its store (config and tasks), so episodes are identical to a local run's; the policy's client options (--base-url, ...) come with the jobs, API keys from this process's environment.",
  schema,
  interruptible: true,
  examples: [
    "budgetrl worker --redis redis://127.0.0.1:6379 --concurrency 8",
    "budgetrl worker --redis redis://queue-host:6379 --concurrency 32 --name gpu-box-1",
  ],
  async run(options, io: CliIo, context) {
    const name = options.name ?? `${hostname()}-${process.pid}`;
    const say = (text: string): void => io.stderr(`worker ${name}: ${text}\n`);
    // Loaded here: the other commands never load BullMQ.
    const { startEpisodeWorker } = await import("../eval/bullmq/worker.js");
    const { redisLocation } = await import("../eval/bullmq/redis.js");
    const worker = await startEpisodeWorker({
      redis: options.redis,
      concurrency: options.concurrency,
      name,
      lockDurationMs: options.lockDuration,
      stalledIntervalMs: options.stalledInterval,
      onEvent: (event) => {
        const line = describeEvent(event, options.verbose, redisLocation(options.redis));
        if (line !== undefined) say(line);
      },
    });
    say(
      `ready on ${redisLocation(options.redis)}, ${options.concurrency} episodes at once; Ctrl-C stops after the episodes in flight`,
    );
    await waitForStop(context.signal);
    await worker.close();
    const stats = worker.stats();
    const cpu = process.cpuUsage();
    say(
      `stopped: ${stats.done} episodes played (${stats.written} stored, ${stats.done - stats.written} already stored), ${stats.failed} failed attempts; ${((cpu.user + cpu.system) / 1e6).toFixed(1)} s of CPU`,
    );
    return 0;
  },
});
