// The task list of a run: the first N tasks of a task file, the first N of a dataset env (BFCL), or N tasks
// generated from seeds derived from the run seed. A file or dataset is a list (read whole: its size is bounded by
// the file); generated tasks are a source made on demand, so `--tasks 1000000000` plans nothing up front (see
// task-stream.ts). Tasks are stored with the run, so resume and show never regenerate a stored one.
// A run's tasks are distinct by content (the task id is a content hash), so that its means are over N distinct
// tasks and the bootstrap over tasks never counts one twice (200 plain draws of 4x4 frozenlake maps hold about
// 140 distinct ones); with `distinct: "structure"` they are distinct in structure too (the env's structureKey: no
// two are the same problem), the tasks of the held-out set {seed, N, by: "structure"}:
//   generated  N distinct tasks drawn from the run seed, a held-out set (`exclude`) left out, by the drawing
//              below eval (src/agent/task-draws.ts: taskDraws, heldOutTasks; re-exported here)
//   listed     a task file or a list handed to evaluate() may not repeat a task (nor, by structure, a structure:
//              refused, naming both); the first N are used as they are. A dataset (BFCL) lists each entry once; by
//              structure its first entry of each structure is kept.
import { readFileSync } from "node:fs";
import type { PlayableEnv } from "../core/env.js";
import { ConfigError, DataError, thrownMessage } from "../core/errors.js";
import {
  checkDistinctCount,
  DEFAULT_TASK_DISTINCTION,
  heldOutTasks,
  listedDistinct,
  NO_HELD_OUT,
  taskDraws,
  type HeldOutSet,
  type TaskDistinction,
  type TaskDraws,
} from "../agent/task-draws.js";

export {
  checkDistinctCount,
  drawTask,
  heldOutTaskIds,
  heldOutTasks,
  MAX_TASK_DRAWS,
  taskDraws,
  taskSeed,
  type HeldOutSet,
  type HeldOutTasks,
  type TaskDistinction,
  type TaskDraws,
} from "../agent/task-draws.js";

/** Where a run's tasks come from: a list known in full, or `count` distinct tasks drawn one at a time from the seed. */
export type TaskSource =
  | { readonly kind: "list"; readonly tasks: readonly unknown[] }
  | { readonly kind: "generated"; readonly count: number; readonly draws: TaskDraws };

interface TaskOptions {
  readonly tasks: number;
  readonly tasksFile?: string | undefined;
  readonly seed: number;
  /** Leave out the tasks of this held-out set (generated tasks, or an env's own list: not a task file). */
  readonly exclude?: HeldOutSet | undefined;
  /** What the tasks are distinct in (default content). */
  readonly distinct?: TaskDistinction | undefined;
}

/** True when a run's tasks are a list stored whole at its start (task file, dataset), not generated as it goes. */
export function tasksAreListed(env: PlayableEnv, options: Pick<TaskOptions, "tasksFile">): boolean {
  return options.tasksFile !== undefined || env.tasks.list !== undefined;
}

/** A run's tasks; refuses, before any work, a list that repeats a task or more distinct tasks than the env has. */
export function taskSource(env: PlayableEnv, options: TaskOptions): TaskSource {
  if (tasksAreListed(env, options)) {
    if (options.exclude !== undefined && options.tasksFile !== undefined)
      throw new ConfigError(
        "exclude",
        "a held-out set can only be left out of generated tasks or an env's own list, not of a task file",
      );
    return { kind: "list", tasks: listedTasks(env, options) };
  }
  const distinct = options.distinct ?? DEFAULT_TASK_DISTINCTION;
  const heldOut = options.exclude === undefined ? NO_HELD_OUT : heldOutTasks(env, options.exclude);
  const heldOutCount = distinct === "structure" ? heldOut.structures.size : heldOut.ids.size;
  checkDistinctCount(env, options.tasks, heldOutCount, "tasks", distinct);
  return {
    kind: "generated",
    count: options.tasks,
    draws: taskDraws(env, options.seed, { heldOut, distinct, count: options.tasks, field: "tasks" }),
  };
}

/** Every task of a run, in memory (fine for small runs; `evaluate` streams generated tasks instead). */
export function resolveTasks(env: PlayableEnv, options: TaskOptions): unknown[] {
  const source = taskSource(env, options);
  return source.kind === "list"
    ? [...source.tasks]
    : Array.from({ length: source.count }, (_, index) => source.draws.make(index));
}

/** Refuses a list of tasks that holds one twice (by structure: two of one structure); `name(index)` says where a
 * task is ("task 3 of levels.txt"). */
export function checkListedDistinct(
  env: PlayableEnv,
  tasks: readonly unknown[],
  field: string,
  name: (index: number) => string,
  distinct: TaskDistinction = "content",
): void {
  const first = new Map<string, number>();
  tasks.forEach((task, index) => {
    const id = distinct === "structure" ? env.tasks.structureKey(task) : env.tasks.id(task);
    const earlier = first.get(id);
    if (earlier !== undefined)
      throw new ConfigError(
        field,
        distinct === "structure"
          ? `${name(index)} is the same problem as ${name(earlier)} (structure ${id}): the run's tasks are distinct in structure`
          : `${name(index)} repeats ${name(earlier)} (${id}): a run's tasks are distinct, so that no task counts twice in its means`,
        distinct === "structure" ? "drop one of them, or run with --distinct content" : "drop the repeat",
      );
    first.set(id, index);
  });
}

/** Refuses a list of tasks that holds one the env cannot play (an unsolvable sokoban level), naming it; problems
 * the env throws (DataError) are named the same way. */
export function checkListedPlayable(
  env: PlayableEnv,
  tasks: readonly unknown[],
  field: string,
  name: (index: number) => string,
): void {
  if (env.tasks.problem === undefined) return;
  tasks.forEach((task, index) => {
    let problem: string | undefined;
    try {
      problem = env.tasks.problem?.(task);
    } catch (error) {
      if (!(error instanceof DataError)) throw error;
      problem = error.message.replace(/\nHINT: /, "; ");
    }
    if (problem !== undefined) throw new ConfigError(field, `${name(index)} ${problem}`);
  });
}

function listedTasks(env: PlayableEnv, options: TaskOptions): unknown[] {
  if (options.tasksFile === undefined) {
    // The list without the held-out set's entries (its first ones: heldOutTasks), in order.
    const heldOut = options.exclude === undefined ? NO_HELD_OUT : heldOutTasks(env, options.exclude);
    const tasks = listedDistinct(
      env,
      env.tasks.list?.() ?? [],
      options.distinct ?? DEFAULT_TASK_DISTINCTION,
      heldOut,
    ).slice(0, options.tasks);
    checkListedDistinct(env, tasks, "env", (index) => `entry ${index + 1} of ${env.spec.name}`);
    return tasks;
  }
  const file = options.tasksFile;
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    throw new ConfigError("tasks-file", `cannot read ${file}: ${thrownMessage(error)}`);
  }
  let tasks: unknown[];
  try {
    tasks = env.tasks.parse(text);
  } catch (error) {
    if (error instanceof DataError || error instanceof ConfigError)
      throw new ConfigError("tasks-file", `${file}: ${error.message}`);
    throw error;
  }
  if (tasks.length === 0) throw new ConfigError("tasks-file", `${file} holds no tasks`);
  const used = tasks.slice(0, options.tasks);
  checkListedDistinct(env, used, "tasks-file", (index) => `task ${index + 1} of ${file}`, options.distinct);
  checkListedPlayable(env, used, "tasks-file", (index) => `task ${index + 1} of ${file}`);
  return used;
}
