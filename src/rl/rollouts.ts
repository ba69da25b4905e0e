// Phase "generate" of an RL step: fresh tasks, one budget per group from the schedule, `group` rollouts per
// task with the current policy. Everything is seeded by (run seed, step), so a resumed run regenerates exactly
// the same tasks, budgets and samples. All rollouts of a step run concurrently, so the policy samples them in
// large batches.
import { createPolicyCaller } from "../agent/policy-call.js";
import { runEpisode, type RolloutOptions } from "../agent/rollout.js";
import { resolveBudget, type BudgetMode, type BudgetScope } from "../core/budget.js";
import type { AnyEnv } from "../core/env.js";
import type { Episode } from "../core/episode.js";
import type { Policy } from "../core/policy.js";
import { deriveSeed } from "../core/rng.js";
import { drawBudget, type BudgetSchedule } from "./schedules/schedule.js";

export interface RolloutStepOptions {
  readonly step: number;
  readonly totalSteps: number;
  readonly seed: number;
  readonly tasksPerStep: number;
  readonly group: number;
  readonly schedule: BudgetSchedule;
  readonly budgetMode: BudgetMode;
  /** What the budget counts: every turn, or the turns of each user turn (BFCL). */
  readonly budgetScope: BudgetScope;
  /** Abandons the step's rollouts at once (StoppedError). */
  readonly signal?: AbortSignal;
}

/** The seed of training task `index` at `step`: the report regenerates training tasks from it to count how many
 * held-out tasks training also saw. */
export function trainTaskSeed(seed: number, step: number, index: number): number {
  return deriveSeed(seed, "train-task", step, index);
}

/** Episodes of one step, grouped: groups[i] holds the `group` rollouts of task i under its drawn budget. */
export async function rolloutStep(env: AnyEnv, policy: Policy, options: RolloutStepOptions): Promise<Episode[][]> {
  const signal = options.signal;
  const caller = createPolicyCaller(signal === undefined ? {} : { signal });
  try {
    return await rolloutGroups(env, policy, options, { caller, ...(signal === undefined ? {} : { signal }) });
  } finally {
    caller.dispose();
  }
}

function rolloutGroups(env: AnyEnv, policy: Policy, options: RolloutStepOptions, guard: Pick<RolloutOptions, "caller" | "signal">): Promise<Episode[][]> {
  const groups: Promise<Episode[]>[] = [];
  for (let index = 0; index < options.tasksPerStep; index++) {
    const task = env.generate(trainTaskSeed(options.seed, options.step, index));
    const spec = drawBudget(options.schedule, { step: options.step, group: index, totalSteps: options.totalSteps, seed: options.seed });
    const budget = resolveBudget(spec, env.referenceBudget(task, options.budgetScope), options.budgetMode, options.budgetScope);
    const taskId = env.taskId(task);
    groups.push(
      Promise.all(
        Array.from({ length: options.group }, (_, sample) =>
          runEpisode(env, policy, { run: "train", task, taskId, taskIndex: index, budget, sample, seed: deriveSeed(options.seed, "train-rollout", options.step, index, sample) }, { ...guard, keepTokens: true, annotate: false }),
        ),
      ),
    );
  }
  return Promise.all(groups);
}
