// How a prepared run's episodes are played: in this process (local, the default: execute-run.ts), or as one
// BullMQ job per episode that `budgetrl worker` processes take (bullmq: bullmq/executor.ts). Either way every
// episode gets the same key, seed and rollout options and lands in the store once, so the same run gives the same
// stored episodes, and the table is read from the store at the end. The bullmq code is loaded only when used.
import { ConfigError } from "../core/errors.js";
import { isPolicySpec } from "../core/policy-spec.js";
import { executeRun, type RunExecutor } from "./execute-run.js";
import type { GivenClientOptions } from "../policies/openai/options.js";
import type { EvalRunOptions } from "./run-options.js";
import type { WaitListener } from "../core/wait-notice.js";

export type { RunExecutor } from "./execute-run.js";

export interface ExecutorContext {
  /** The run store as given (--db). */
  readonly db?: string;
  /** The policy's client options, which the bullmq executor hands to the workers with every job. */
  readonly client?: GivenClientOptions;
  /** Told when a wait for a lost Redis lasted a second. */
  readonly onWait?: WaitListener;
}

/** Refuse, before any work, what the bullmq executor cannot do: workers rebuild the run from the store, so it
 * needs a store, and an env and a policy given by name (not objects living in this process). */
export function checkExecutable(
  runOptions: Readonly<EvalRunOptions>,
  options: { readonly db?: string | undefined; readonly env?: unknown; readonly policy?: unknown },
): void {
  if (runOptions.executor !== "bullmq") return;
  if (options.db === undefined)
    throw new ConfigError(
      "db",
      "the bullmq executor needs a run store that the workers open too",
      "give --db a file (workers on this machine) or a postgres:// URL",
    );
  if (options.env !== undefined && typeof options.env !== "string")
    throw new ConfigError("env", "the bullmq executor needs the env by name: workers build it from the stored run");
  if (options.policy !== undefined && typeof options.policy !== "string" && !isPolicySpec(options.policy))
    throw new ConfigError(
      "policy",
      "the bullmq executor needs the policy as a spec (e.g. noisy-oracle:0.3, openai:MODEL): workers build it from the stored run",
    );
}

export async function executorFor(
  runOptions: Readonly<EvalRunOptions>,
  context: ExecutorContext,
): Promise<RunExecutor> {
  if (runOptions.executor === "local") return executeRun;
  const { bullmqExecutor } = await import("./bullmq/executor.js");
  return bullmqExecutor({
    redis: runOptions.redis as string,
    db: context.db as string,
    reconnectMs: runOptions.reconnectTimeout * 1000,
    ...(context.client === undefined ? {} : { client: context.client }),
    ...(context.onWait === undefined ? {} : { onWait: context.onWait }),
  });
}
