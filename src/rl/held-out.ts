// The held-out tasks a training run never draws (by content, agent/task-draws.ts): its own evaluation tasks (when it
// evaluates: the first evalTasks distinct tasks from the eval seed, the tasks its evaluations play) and the config's
// other held-out set (`exclude`, e.g. a study's evaluation tasks). `excludeHeldOut: false` trains on them all (envs
// with too few distinct tasks: hanoi without randomStart).
import { checkDistinctCount, heldOutTaskIds } from "../agent/task-draws.js";
import type { AnyEnv } from "../core/env.js";
import { evalSeedOf } from "./evaluations.js";
import type { TrainConfig } from "./train-config.js";

/** The ids of the held-out tasks. */
export function heldOutIds(env: AnyEnv, config: Readonly<TrainConfig>): Set<string> {
  if (!config.excludeHeldOut) return new Set();
  const ids =
    config.evalEvery > 0
      ? heldOutTaskIds(env, { seed: evalSeedOf(config), tasks: config.evalTasks }, "evalTasks")
      : new Set<string>();
  if (config.exclude !== undefined) for (const id of heldOutTaskIds(env, config.exclude)) ids.add(id);
  return ids;
}

/** The held-out ids, after refusing (before any work) evaluations or steps with more distinct tasks than the env has. */
export function checkedHeldOut(env: AnyEnv, config: Readonly<TrainConfig>): Set<string> {
  if (config.evalEvery > 0) checkDistinctCount(env, config.evalTasks, 0, "evalTasks");
  const ids = heldOutIds(env, config);
  checkDistinctCount(env, config.tasksPerStep, ids.size, "tasksPerStep");
  return ids;
}
