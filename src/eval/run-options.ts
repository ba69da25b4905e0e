// How an evaluation runs, as opposed to what it measures: options that never change its results, so they are not
// stored with the run (a resumed run may use others) and `--resume` accepts them. Declared once, with defaults,
// for `evaluate()` and the `budgetrl eval` flags alike.
//   concurrency   episodes in flight at once
//   turnTimeout   seconds one policy call may take; a slower call ends its episode in a policy error, which is not
//                 counted and which `--resume` retries, so a hung policy never hangs a run
//   busyTimeout   seconds to wait while another process writes to the same store (several evals may share one)
//   reconnectTimeout  seconds to wait for a PostgreSQL store or a Redis queue lost mid-run before stopping (the run
//                 then continues with --resume once it is back)
//   executor      where the episodes run: in this process (local), or as jobs on a BullMQ queue in Redis that
//                 `budgetrl worker` processes take (bullmq, with redis: the queue's URL); same episodes either way
import { z } from "zod";
import { DEFAULT_CONCURRENCY } from "../agent/run-episodes.js";
import { parseConfig } from "../core/config.js";
import { ConfigError } from "../core/errors.js";
import { withoutPassword } from "../core/url-location.js";
import type { WaitListener } from "../core/wait-notice.js";
import type { StoreWaitOptions } from "../store/open.js";
import { clientOptionArgs, type GivenClientOptions } from "../policies/openai/options.js";

export const EXECUTORS = ["local", "bullmq"] as const;
export type ExecutorName = (typeof EXECUTORS)[number];

export const evalRunOptionsSchema = z.object({
  concurrency: z
    .number()
    .int()
    .min(1)
    .max(1024)
    .default(DEFAULT_CONCURRENCY)
    .describe("episodes in flight at once (raise for remote policies)"),
  turnTimeout: z
    .number()
    .positive()
    .max(86_400)
    .default(600)
    .describe(
      "seconds one policy call may take; a slower one ends its episode in a policy error that --resume retries",
    ),
  busyTimeout: z
    .number()
    .min(0)
    .max(3600)
    .default(60)
    .describe("seconds to wait for a run store another process is writing to (SQLite)"),
  reconnectTimeout: z
    .number()
    .min(0)
    .max(86_400)
    .default(60)
    .describe(
      "seconds to keep trying to reach a PostgreSQL store or the Redis queue lost mid-run, before stopping with the command to resume",
    ),
  executor: z
    .enum(EXECUTORS)
    .default("local")
    .describe(
      "where episodes run: in this process (local), or as jobs on a BullMQ queue that `budgetrl worker` processes take (bullmq: needs --redis)",
    ),
  redis: z
    .string()
    .min(1)
    .optional()
    .describe("Redis URL of the BullMQ queue, e.g. redis://127.0.0.1:6379 (--executor bullmq)"),
});

export type EvalRunOptions = z.output<typeof evalRunOptionsSchema>;

/** Validate run options (any object holding them; other keys are ignored); throws ConfigError naming the field. */
export function parseEvalRunOptions(input: Partial<Record<keyof EvalRunOptions, unknown>>): Readonly<EvalRunOptions> {
  const options = parseConfig(evalRunOptionsSchema, {
    concurrency: input.concurrency,
    turnTimeout: input.turnTimeout,
    busyTimeout: input.busyTimeout,
    reconnectTimeout: input.reconnectTimeout,
    executor: input.executor,
    redis: input.redis,
  });
  if (options.executor === "bullmq" && options.redis === undefined)
    throw new ConfigError(
      "redis",
      "the bullmq executor needs the Redis URL of its queue",
      "give --redis redis://HOST:PORT (the workers take the same one)",
    );
  return options;
}

/** A command's store waits (store/open.ts, in ms) as evaluate() takes them (in seconds). */
export function evalWaitOptions(
  waits: StoreWaitOptions | undefined,
): Partial<{ busyTimeout: number; reconnectTimeout: number; onWait: WaitListener }> {
  if (waits === undefined) return {};
  return {
    ...(waits.busyTimeoutMs === undefined ? {} : { busyTimeout: waits.busyTimeoutMs / 1000 }),
    ...(waits.reconnectMs === undefined ? {} : { reconnectTimeout: waits.reconnectMs / 1000 }),
    ...(waits.onWait === undefined ? {} : { onWait: waits.onWait }),
  };
}

/** The flags an eval's resume command needs to work as printed, beyond its store and run: the BullMQ queue, and
 * every openai client option given (by CLIENT_OPTION_FLAGS: the API key's variable by name, never the key; URLs
 * without their password). */
export function evalResumeFlags(
  run: { readonly executor?: ExecutorName | undefined; readonly redis?: string | undefined },
  client?: GivenClientOptions,
): string[] {
  const queue =
    run.executor === "bullmq" && run.redis !== undefined
      ? ["--executor", "bullmq", "--redis", withoutPassword(run.redis)]
      : [];
  return [...queue, ...clientOptionArgs(client)];
}
