// The one episode planner, for evaluations and RL steps: which episodes a run plays, each with its task, its budget
// resolved for that task, its sample number and its seed.
//   a task     x every budget spec of the run, resolved against the task's budget basis (taskBudgetBasis,
//              resolveBudget: ceil(25% x 20) = 5 turns)  x  `samples` samples, in that order (budget, then sample)
//   seeding    evaluations use common random numbers: an episode's seed depends on (run seed, task id, sample), not
//              on the budget, so sample s of a task meets the same randomness at every budget (paired comparisons
//              across T). An RL step seeds its own way, by (run seed, step, task index, sample), and groups the
//              samples of a task so that a policy may sample a group's first turn in one request (rl/rollouts.ts).
// Evaluations pull their tasks one at a time (`planEpisodes`: any iterable, sync or async), so a run of a billion
// tasks never holds its plan in memory; `skip` is asked about a task's episodes right after that task was pulled.
import { resolveBudget, taskBudgetBasis, type BudgetMode, type BudgetScope, type BudgetSpec } from "../core/budget.js";
import type { RolloutEnv } from "./env-calls.js";
import type { EpisodeGroup } from "../core/policy.js";
import { deriveSeed } from "../core/rng.js";
import type { EpisodeSpec } from "./rollout.js";

export interface EpisodeKey {
  readonly taskIndex: number;
  readonly budgetLabel: string;
  readonly sample: number;
}

/** How a run seeds the episodes of a task, and whether they form a group. */
export interface EpisodeSeeding {
  /** The seed of sample `sample` of task `taskIndex`, whose id is `taskId`. */
  episode(taskId: string, taskIndex: number, sample: number): number;
  /** The group the `size` samples of task `taskIndex` form (RL steps, one budget per task); none in evaluations. */
  group?(taskIndex: number, size: number): EpisodeGroup;
}

export function episodeSeed(runSeed: number, taskId: string, sample: number): number {
  return deriveSeed(runSeed, "episode", taskId, sample);
}

/** The seeding of evaluations: common random numbers across budgets (see the header). */
export function commonRandomNumbers(runSeed: number): EpisodeSeeding {
  return { episode: (taskId, _taskIndex, sample) => episodeSeed(runSeed, taskId, sample) };
}

/** What the episodes of one task depend on besides the task. */
export interface TaskPlanOptions {
  readonly run: string;
  readonly budgets: readonly BudgetSpec[];
  readonly mode: BudgetMode;
  readonly scope?: BudgetScope;
  /** Samples per (task, budget). */
  readonly samples: number;
  readonly seeding: EpisodeSeeding;
  /** Episodes to skip (already stored). */
  readonly skip?: (key: EpisodeKey) => boolean;
}

/** The episodes of task `taskIndex`, in a fixed order (budget, then sample). */
export function planTaskEpisodes<TTask>(
  env: RolloutEnv<TTask, unknown>,
  task: TTask,
  taskIndex: number,
  options: TaskPlanOptions,
): EpisodeSpec<TTask>[] {
  const scope = options.scope ?? "episode";
  const taskId = env.tasks.id(task);
  const basis = taskBudgetBasis(env, task, scope);
  const group = options.seeding.group?.(taskIndex, options.samples);
  const specs: EpisodeSpec<TTask>[] = [];
  for (const spec of options.budgets) {
    const budget = resolveBudget(spec, basis, options.mode, scope);
    for (let sample = 0; sample < options.samples; sample++) {
      if (options.skip?.({ taskIndex, budgetLabel: budget.label, sample }) === true) continue;
      const seed = options.seeding.episode(taskId, taskIndex, sample);
      specs.push({
        run: options.run,
        task,
        taskId,
        taskIndex,
        budget,
        sample,
        seed,
        ...(group === undefined ? {} : { group }),
      });
    }
  }
  return specs;
}

/** What an evaluation's plan depends on: its tasks, in index order, and its run seed. */
export interface EpisodePlanOptions<TTask> extends Omit<TaskPlanOptions, "seeding"> {
  readonly seed: number;
  /** The tasks, in index order (an array, or any iterable, sync or async, pulled lazily). */
  readonly tasks: Iterable<TTask> | AsyncIterable<TTask>;
}

/** The episodes of an evaluation, in a fixed order (task, then budget, then sample), seeded by common random numbers. */
export async function* planEpisodes<TTask>(
  env: RolloutEnv<TTask, unknown>,
  options: EpisodePlanOptions<TTask>,
): AsyncGenerator<EpisodeSpec<TTask>> {
  const seeding = commonRandomNumbers(options.seed);
  let taskIndex = -1;
  for await (const task of options.tasks) {
    taskIndex++;
    yield* planTaskEpisodes(env, task, taskIndex, { ...options, seeding });
  }
}

/** Count of episodes `planEpisodes` yields without skipping, for `taskCount` tasks. */
export function plannedCount(options: {
  readonly taskCount: number;
  readonly budgets: readonly unknown[];
  readonly samples: number;
}): number {
  return options.taskCount * options.budgets.length * options.samples;
}
