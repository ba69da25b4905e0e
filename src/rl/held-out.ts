// The held-out tasks a training run never draws (agent/task-draws.ts, isHeldOut): its own evaluation tasks (when it
// evaluates: the first evalTasks tasks from the eval seed, distinct by content or, with evalDistinct "structure", in
// structure, the tasks its evaluations play) and the config's other held-out set (`exclude`, e.g. a study's
// evaluation tasks). A set by structure holds out every task of its structures, not only its own tasks.
// `excludeHeldOut: false` trains on them all (envs with too few distinct tasks: hanoi without randomStart).
import { checkDistinctCount, heldOutTasks, joinHeldOut, NO_HELD_OUT, type HeldOutTasks } from "../agent/task-draws.js";
import type { PlayableEnv } from "../core/env.js";
import { evalSeedOf } from "./evaluations.js";
import type { TrainConfig } from "./train-config.js";

/** The held-out tasks: the evaluation set's and the `exclude` set's, joined. */
export function trainHeldOut(env: PlayableEnv, config: Readonly<TrainConfig>): HeldOutTasks {
  if (!config.excludeHeldOut) return NO_HELD_OUT;
  const sets: HeldOutTasks[] = [];
  if (config.evalEvery > 0)
    sets.push(
      heldOutTasks(env, { seed: evalSeedOf(config), tasks: config.evalTasks, by: config.evalDistinct }, "evalTasks"),
    );
  if (config.exclude !== undefined) sets.push(heldOutTasks(env, config.exclude));
  return joinHeldOut(sets);
}

/** The held-out tasks, after refusing (before any work) evaluations or steps with more distinct tasks (or
 * structures) than the env has. */
export function checkedHeldOut(env: PlayableEnv, config: Readonly<TrainConfig>): HeldOutTasks {
  if (config.evalEvery > 0) checkDistinctCount(env, config.evalTasks, 0, "evalTasks", config.evalDistinct);
  const heldOut = trainHeldOut(env, config);
  checkDistinctCount(env, config.tasksPerStep, heldOut.ids.size, "tasksPerStep");
  return heldOut;
}
