// Running many episodes: n samples of every (task, budget), with per-sample seeds and a concurrency limit.
//
// Seeds use common random numbers: an episode's seed depends on (run seed, task id, sample), not on the budget,
// so sample s of a task meets the same randomness at every budget (paired comparisons across T). Episodes are
// independent: a resumed run skips the ones already stored and computes exactly the missing ones.
// Tasks are pulled one at a time, as the episodes are planned, so a run of a billion tasks never holds its plan in
// memory: `tasks` may be any iterable, sync or async (a generator that makes or loads tasks in chunks), and `skip` is asked about
// a task's episodes right after that task was pulled. All policy calls of a run share one guarded PolicyCaller
// (turn timeout, stop signal, yields to the event loop).
import { resolveBudget, taskBudgetBasis, type BudgetMode, type BudgetScope, type BudgetSpec } from "../core/budget.js";
import type { Env } from "../core/env.js";
import type { Episode } from "../core/episode.js";
import type { Policy } from "../core/policy.js";
import { deriveSeed } from "../core/rng.js";
import { createPolicyCaller } from "./policy-call.js";
import { runPool } from "./pool.js";
import { runEpisode, type EpisodeSpec, type RolloutOptions } from "./rollout.js";

export interface EpisodeKey {
  readonly taskIndex: number;
  readonly budgetLabel: string;
  readonly sample: number;
}

export interface RunEpisodesOptions<TTask> {
  readonly run: string;
  readonly seed: number;
  /** The tasks, in index order (an array, or any iterable, sync or async, pulled lazily). */
  readonly tasks: Iterable<TTask> | AsyncIterable<TTask>;
  readonly budgets: readonly BudgetSpec[];
  readonly mode: BudgetMode;
  readonly scope?: BudgetScope;
  /** Samples per (task, budget). */
  readonly samples: number;
  readonly concurrency?: number;
  readonly rollout?: Omit<RolloutOptions, "caller" | "signal">;
  /** Seconds a policy call may take before its episode ends in a policy error (default: no limit). */
  readonly turnTimeout?: number;
  /** Episodes to skip (already stored). */
  readonly skip?: (key: EpisodeKey) => boolean;
  /** Called with every finished episode, in completion order; awaited before the next one starts in its slot. */
  readonly onEpisode: (episode: Episode) => void | Promise<void>;
  readonly signal?: AbortSignal;
}

export function episodeSeed(runSeed: number, taskId: string, sample: number): number {
  return deriveSeed(runSeed, "episode", taskId, sample);
}

/** The episodes a run consists of, in a fixed order (task, then budget, then sample). */
export async function* planEpisodes<TTask>(env: Env<TTask, unknown>, options: Omit<RunEpisodesOptions<TTask>, "onEpisode">): AsyncGenerator<EpisodeSpec<TTask>> {
  const scope = options.scope ?? "episode";
  let taskIndex = -1;
  for await (const task of options.tasks) {
    taskIndex++;
    const taskId = env.taskId(task);
    const basis = taskBudgetBasis(env, task, scope);
    for (const spec of options.budgets) {
      const budget = resolveBudget(spec, basis, options.mode, scope);
      for (let sample = 0; sample < options.samples; sample++) {
        if (options.skip?.({ taskIndex, budgetLabel: budget.label, sample }) === true) continue;
        yield { run: options.run, task, taskId, taskIndex, budget, sample, seed: episodeSeed(options.seed, taskId, sample) };
      }
    }
  }
}

/** Count of episodes `planEpisodes` yields without skipping, for `taskCount` tasks. */
export function plannedCount(options: { readonly taskCount: number; readonly budgets: readonly unknown[]; readonly samples: number }): number {
  return options.taskCount * options.budgets.length * options.samples;
}

export async function runEpisodes<TTask, TState>(env: Env<TTask, TState>, policy: Policy, options: RunEpisodesOptions<TTask>): Promise<void> {
  const jobs = planEpisodes(env as Env<TTask, unknown>, options);
  const signal = options.signal;
  const caller = createPolicyCaller({ ...(signal === undefined ? {} : { signal }), ...(options.turnTimeout === undefined ? {} : { turnTimeout: options.turnTimeout }) });
  const rollout = { ...options.rollout, caller, ...(signal === undefined ? {} : { signal }) };
  try {
    await runPool(
      jobs,
      options.concurrency ?? 1,
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
