// Running many episodes: the episodes an evaluation plans (plan-episodes.ts: every task x budget x sample, with
// per-sample seeds), played with a concurrency limit. Episodes are independent: a resumed run skips the ones already
// stored and computes exactly the missing ones. Tasks are pulled one at a time, as the episodes are planned, so
// `tasks` may be any iterable, sync or async (a generator that makes or loads tasks in chunks). All policy calls of a
// run share one guarded PolicyCaller (turn timeout, stop signal, yields to the event loop).
import type { RolloutEnv } from "./env-calls.js";
import type { Episode } from "../core/episode.js";
import type { Policy } from "../core/policy.js";
import { planEpisodes, type EpisodePlanOptions } from "./plan-episodes.js";
import { createPolicyCaller } from "./policy-call.js";
import { runPool } from "./pool.js";
import { runEpisode, type RolloutOptions } from "./rollout.js";

/** Episodes in flight at once when nothing says. */
export const DEFAULT_CONCURRENCY = 1;

// The planner's names, for the modules that import them from here.
export { episodeSeed, planEpisodes, plannedCount, type EpisodeKey } from "./plan-episodes.js";

export interface RunEpisodesOptions<TTask> extends EpisodePlanOptions<TTask> {
  readonly concurrency?: number;
  readonly rollout?: Omit<RolloutOptions, "caller" | "signal">;
  /** Seconds a policy call may take before its episode ends in a policy error (default: no limit). */
  readonly turnTimeout?: number;
  /** Called with every finished episode, in completion order; awaited before the next one starts in its slot. */
  readonly onEpisode: (episode: Episode) => void | Promise<void>;
  readonly signal?: AbortSignal;
}

export async function runEpisodes<TTask, TState>(
  env: RolloutEnv<TTask, TState>,
  policy: Policy,
  options: RunEpisodesOptions<TTask>,
): Promise<void> {
  const jobs = planEpisodes(env as RolloutEnv<TTask, unknown>, options);
  const signal = options.signal;
  const caller = createPolicyCaller({
    ...(signal === undefined ? {} : { signal }),
    ...(options.turnTimeout === undefined ? {} : { turnTimeout: options.turnTimeout }),
  });
  const rollout = { ...options.rollout, caller, ...(signal === undefined ? {} : { signal }) };
  try {
    await runPool(
      jobs,
      options.concurrency ?? DEFAULT_CONCURRENCY,
      async (spec) => {
        const episode = await runEpisode(env, policy, spec, rollout);
        await options.onEpisode(episode);
      },
      signal,
    );
  } finally {
    caller.dispose();
  }
}
