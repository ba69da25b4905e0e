// What a worker does with one episode job: rebuild the run from the store (its stored config and the task at the
// job's index: the env, the policy with the job's client options, the budget by label, the episode's seed), play
// the episode through the rollout engine exactly as the local executor does, and write it idempotently (a job
// delivered twice, or retried after its worker died mid-write, is stored once). Runs and stores are opened once per
// worker process and kept (`createJobContexts`). A job that can never succeed (its run is gone or its config is
// invalid here: an unknown env, a policy that cannot be built) is marked `permanent`, so the queue fails it at once
// instead of retrying; a store that cannot be opened or reached is transient and retried with backoff.
import { createPolicyCaller } from "../../agent/policy-call.js";
import { runEpisode, type RolloutOptions } from "../../agent/rollout.js";
import { episodeSeed } from "../../agent/run-episodes.js";
import { resolveBudget, type BudgetSpec } from "../../core/budget.js";
import type { PlayableEnv } from "../../core/env.js";
import { ConfigError, DataError } from "../../core/errors.js";
import { canonicalJson } from "../../core/json.js";
import type { Policy } from "../../core/policy.js";
import { openPlayableEnv } from "../../envs/registry.js";
import { createPolicy } from "../../policies/spec.js";
import { writeEpisodes } from "../../store/episodes.js";
import { isStoreError } from "../../store/faults.js";
import { openStore, type Store } from "../../store/open.js";
import type { WaitListener } from "../../core/wait-notice.js";
import { getRun, loadTaskRange } from "../../store/runs.js";
import { budgetsToRun, parseEvalConfig, type EvalConfig } from "../config.js";
import { BadJobError, type EpisodeJob } from "./job.js";

interface RunContext {
  readonly config: Readonly<EvalConfig>;
  readonly env: PlayableEnv;
  readonly policy: Policy;
  readonly budgets: ReadonlyMap<string, BudgetSpec>;
  readonly rollout: RolloutOptions;
  dispose(): Promise<void>;
}

export interface JobContexts {
  play(job: EpisodeJob): Promise<{ readonly written: boolean; readonly stopReason: string }>;
  close(): Promise<void>;
}

/** An error that retrying cannot cure: the queue fails the job at once. */
export class PermanentJobError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "PermanentJobError";
  }
}

/** Errors about the run itself (not about reaching the store) are permanent. */
function classify(error: unknown): unknown {
  if (isStoreError(error)) return error;
  if (error instanceof ConfigError || error instanceof BadJobError || error instanceof DataError)
    return new PermanentJobError(error.message);
  return error;
}

async function loadRun(store: Store, job: EpisodeJob, onWait: WaitListener | undefined): Promise<RunContext> {
  const record = await getRun(store, job.run);
  const config = parseEvalConfig(record.config);
  const env = await openPlayableEnv(config.env, config.envOptions);
  const policy = await createPolicy(config.policy, {
    ...(config.policyOptions === undefined ? {} : { options: config.policyOptions }),
    ...(job.policyClient === undefined ? {} : { client: job.policyClient }),
    runSeed: config.seed,
    ...(onWait === undefined ? {} : { onWait }),
  });
  const caller = createPolicyCaller({ turnTimeout: job.turnTimeout });
  return {
    config,
    env,
    policy,
    budgets: new Map(budgetsToRun(config).map((spec) => [spec.label, spec])),
    // As the local executor plays a run (execute-run.ts): the same options give the same episodes.
    rollout: { annotate: config.annotate, intervention: config.intervention, keepTokens: true, caller },
    dispose: async () => {
      caller.dispose();
      await policy.close?.();
    },
  };
}

/** A cache of promises by key; a rejected one is forgotten, so the next job tries again. */
function promiseCache<T>(): {
  get(key: string, make: () => Promise<T>): Promise<T>;
  values(): Promise<T>[];
  clear(): void;
} {
  const entries = new Map<string, Promise<T>>();
  return {
    get(key, make) {
      let found = entries.get(key);
      if (found === undefined) {
        found = make();
        entries.set(key, found);
        found.catch(() => entries.delete(key));
      }
      return found;
    },
    values: () => [...entries.values()],
    clear: () => entries.clear(),
  };
}

/** `onWait` hears of a wait for a store (a lock, a lost PostgreSQL server) that lasted a second, and of an outage of
 * a policy's server. */
export function createJobContexts(onWait?: WaitListener): JobContexts {
  const stores = promiseCache<Store>();
  const runs = promiseCache<RunContext>();
  const storeOf = (job: EpisodeJob): Promise<Store> =>
    stores.get(job.db, () =>
      openStore(job.db, {
        mode: "write",
        busyTimeoutMs: job.busyTimeout * 1000,
        ...(onWait === undefined ? {} : { onWait }),
      }),
    );
  const runOf = (store: Store, job: EpisodeJob): Promise<RunContext> =>
    runs.get(
      canonicalJson({ db: job.db, run: job.run, client: job.policyClient ?? null, turnTimeout: job.turnTimeout }),
      () => loadRun(store, job, onWait),
    );
  return {
    async play(job) {
      try {
        // A store that cannot be opened now may open later (a server restarting): retried, never permanent.
        const store = await storeOf(job).catch((error: unknown) => {
          throw new Error(
            `cannot open the run store ${job.db}: ${error instanceof Error ? error.message : String(error)}`,
          );
        });
        const context = await runOf(store, job);
        const [stored] = await loadTaskRange(store, job.run, job.taskIndex, job.taskIndex + 1);
        if (stored === undefined)
          throw new DataError(`task ${job.taskIndex} of run ${job.run} is not in ${store.location}`);
        const spec = context.budgets.get(job.budget);
        if (spec === undefined) throw new DataError(`run ${job.run} has no budget "${job.budget}"`);
        const { env, config } = context;
        const task = env.tasks.decode(stored.task);
        const taskId = env.tasks.id(task);
        const budget = resolveBudget(
          spec,
          {
            reference: stored.referenceBudget,
            optimal: stored.optimalTurns ?? env.tasks.optimalTurns?.(task, config.budgetScope) ?? null,
          },
          config.budgetMode,
          config.budgetScope,
        );
        const episode = await runEpisode(
          env,
          context.policy,
          {
            run: job.run,
            task,
            taskId,
            taskIndex: job.taskIndex,
            budget,
            sample: job.sample,
            seed: episodeSeed(config.seed, taskId, job.sample),
          },
          context.rollout,
        );
        const written = await writeEpisodes(store, [episode]);
        return { written: written === 1, stopReason: episode.stopReason };
      } catch (error) {
        throw classify(error);
      }
    },
    async close() {
      const contexts = await Promise.allSettled(runs.values());
      for (const context of contexts) if (context.status === "fulfilled") await context.value.dispose();
      const opened = await Promise.allSettled(stores.values());
      for (const store of opened) if (store.status === "fulfilled") await store.value.close();
      runs.clear();
      stores.clear();
    },
  };
}
