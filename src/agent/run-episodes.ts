// Running many episodes: n samples of every (task, budget), with per-sample seeds and a concurrency limit.
//
// Seeds use common random numbers: an episode's seed depends on (run seed, task id, sample), not on the budget,
// so sample s of a task meets the same randomness at every budget (paired comparisons across T). Episodes are
// independent: a resumed run skips the ones already stored and computes exactly the missing ones.
import { resolveBudget, type BudgetMode, type BudgetScope, type BudgetSpec } from "../core/budget.js";
import type { Env } from "../core/env.js";
import type { Episode } from "../core/episode.js";
import type { Policy } from "../core/policy.js";
import { deriveSeed } from "../core/rng.js";
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
  readonly tasks: readonly TTask[];
  readonly budgets: readonly BudgetSpec[];
  readonly mode: BudgetMode;
  readonly scope?: BudgetScope;
  /** Samples per (task, budget). */
  readonly samples: number;
  readonly concurrency?: number;
  readonly rollout?: RolloutOptions;
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
export function* planEpisodes<TTask>(env: Env<TTask, unknown>, options: Omit<RunEpisodesOptions<TTask>, "onEpisode">): Generator<EpisodeSpec<TTask>> {
  const scope = options.scope ?? "episode";
  for (let taskIndex = 0; taskIndex < options.tasks.length; taskIndex++) {
    const task = options.tasks[taskIndex] as TTask;
    const taskId = env.taskId(task);
    const reference = env.referenceBudget(task, scope);
    for (const spec of options.budgets) {
      const budget = resolveBudget(spec, reference, options.mode, scope);
      for (let sample = 0; sample < options.samples; sample++) {
        if (options.skip?.({ taskIndex, budgetLabel: budget.label, sample }) === true) continue;
        yield { run: options.run, task, taskId, taskIndex, budget, sample, seed: episodeSeed(options.seed, taskId, sample) };
      }
    }
  }
}

/** Count of episodes `planEpisodes` yields without skipping. */
export function plannedCount(options: Pick<RunEpisodesOptions<unknown>, "tasks" | "budgets" | "samples">): number {
  return options.tasks.length * options.budgets.length * options.samples;
}

export async function runEpisodes<TTask, TState>(env: Env<TTask, TState>, policy: Policy, options: RunEpisodesOptions<TTask>): Promise<void> {
  const jobs = planEpisodes(env as Env<TTask, unknown>, options);
  await runPool(
    jobs,
    options.concurrency ?? 1,
    async (spec) => {
      const episode = await runEpisode(env, policy, spec, { ...options.rollout, ...(options.signal === undefined ? {} : { signal: options.signal }) });
      await options.onEpisode(episode);
    },
    options.signal,
  );
}
