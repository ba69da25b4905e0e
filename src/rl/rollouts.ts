// Phase "rollouts" of an RL step: fresh tasks, one budget per group from the schedule, `group` rollouts per
// task with the current policy, planned by the episode planner evaluations use (agent/plan-episodes.ts) with the
// step's own seeding. Everything is seeded by (run seed, step), so a resumed run regenerates exactly the same
// tasks, budgets and samples. All rollouts of a step run concurrently, so the policy samples them in large
// batches; each episode knows its group (seed and size), so that a policy may sample a group's first turn in one
// request. A step's tasks are distinct by content, and held-out tasks (`heldOut`: the training run's own evaluation
// tasks and any study held-out set, by id, and for a set by structure every task of its structures) are never
// trained on: a draw that falls in either is drawn again from a derived seed (tasks of different steps may repeat).
import { planTaskEpisodes, type EpisodeSeeding } from "../agent/plan-episodes.js";
import { createPolicyCaller } from "../agent/policy-call.js";
import { runEpisode, type RolloutOptions } from "../agent/rollout.js";
import { drawTask, isHeldOut, MAX_TASK_DRAWS, NO_HELD_OUT, type HeldOutTasks } from "../agent/task-draws.js";
import type { BudgetMode, BudgetScope } from "../core/budget.js";
import { envLabel, type PlayableEnv } from "../core/env.js";
import { BudgetrlError, ConfigError } from "../core/errors.js";
import type { Episode } from "../core/episode.js";
import type { Policy } from "../core/policy.js";
import { deriveSeed } from "../core/rng.js";
import { drawBudget, type BudgetSchedule } from "./schedules/schedule.js";
import type { TrainConfig } from "./train-config.js";

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
  /** Tasks never to train on (held-out tasks). */
  readonly heldOut?: HeldOutTasks;
}

/** The rollout options of step `step` of a run with `config`. */
export function stepRolloutOptions(
  config: Readonly<TrainConfig>,
  step: number,
  heldOut: HeldOutTasks,
  signal?: AbortSignal,
): RolloutStepOptions {
  const { seed, steps: totalSteps, tasksPerStep, group, budget: schedule, budgetMode, budgetScope } = config;
  const options = { step, totalSteps, seed, tasksPerStep, group, schedule, budgetMode, budgetScope, heldOut };
  return signal === undefined ? options : { ...options, signal };
}

/** A policy that failed (a Tinker server that stopped answering) stops the run, resumable, instead of training on
 * error episodes. */
export function refuseFailedRollouts(groups: readonly (readonly Episode[])[], step: number): void {
  const failed = groups.flat().find((episode) => episode.stopReason === "error");
  if (failed === undefined) return;
  const message = `a rollout of step ${step} failed: ${failed.error ?? "policy error"}`;
  throw new BudgetrlError("train:rollout", message, "fix the cause, then continue with --resume");
}

/** The training tasks of `step`: task i seeded by (seed, step, i), drawn again while it is a held-out task or one
 * drawn before in the step. */
export function stepTasks(
  env: PlayableEnv,
  seed: number,
  step: number,
  count: number,
  heldOut: HeldOutTasks,
): unknown[] {
  const drawn = new Set<string>();
  const taken = (task: unknown, id: string): boolean => drawn.has(id) || isHeldOut(env, heldOut, task, id);
  return Array.from({ length: count }, (_, index) => {
    const found = drawTask(
      env,
      (attempt) =>
        attempt === 0
          ? deriveSeed(seed, "train-task", step, index)
          : deriveSeed(seed, "train-task", step, index, attempt),
      taken,
    );
    if (found === undefined) {
      const structures =
        heldOut.structures.size > 0 ? ` and every task of their ${heldOut.structures.size} structures` : "";
      const held = heldOut.ids.size > 0 ? ` besides the ${heldOut.ids.size} held-out ones${structures}` : "";
      throw new ConfigError(
        "tasksPerStep",
        `${envLabel(env)} gave no new task in ${MAX_TASK_DRAWS} draws in a row after ${drawn.size} distinct training tasks${held}: too few for ${count} distinct tasks per step`,
        "lower --tasks-per-step, use an env config with more distinct tasks, or (hanoi without randomStart) --no-exclude-held-out",
      );
    }
    drawn.add(found.id);
    return found.task;
  });
}

/** Episodes of one step, grouped: groups[i] holds the `group` rollouts of task i under its drawn budget. */
export async function rolloutStep(env: PlayableEnv, policy: Policy, options: RolloutStepOptions): Promise<Episode[][]> {
  const signal = options.signal;
  const caller = createPolicyCaller(signal === undefined ? {} : { signal });
  try {
    return await rolloutGroups(env, policy, options, { caller, ...(signal === undefined ? {} : { signal }) });
  } finally {
    caller.dispose();
  }
}

/** The seeding of step `step`: episodes by (seed, step, task index, sample), the samples of a task one group. */
export function stepSeeding(seed: number, step: number): EpisodeSeeding {
  return {
    episode: (_taskId, taskIndex, sample) => deriveSeed(seed, "train-rollout", step, taskIndex, sample),
    group: (taskIndex, size) => ({ seed: deriveSeed(seed, "train-group", step, taskIndex), size }),
  };
}

function rolloutGroups(
  env: PlayableEnv,
  policy: Policy,
  options: RolloutStepOptions,
  guard: Pick<RolloutOptions, "caller" | "signal">,
): Promise<Episode[][]> {
  const tasks = stepTasks(env, options.seed, options.step, options.tasksPerStep, options.heldOut ?? NO_HELD_OUT);
  const seeding = stepSeeding(options.seed, options.step);
  const plans = tasks.map((task, index) => {
    const budget = drawBudget(options.schedule, {
      step: options.step,
      group: index,
      totalSteps: options.totalSteps,
      seed: options.seed,
    });
    return planTaskEpisodes(env, task, index, {
      run: "train",
      budgets: [budget],
      mode: options.budgetMode,
      scope: options.budgetScope,
      samples: options.group,
      seeding,
    });
  });
  return Promise.all(
    plans.map((plan) =>
      Promise.all(plan.map((spec) => runEpisode(env, policy, spec, { ...guard, keepTokens: true, annotate: false }))),
    ),
  );
}
