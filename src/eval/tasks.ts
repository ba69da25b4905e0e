// The task list of a run: the first N tasks of a task file, the first N of a dataset env (BFCL), or N tasks
// generated from seeds derived from the run seed. A file or dataset is a list (read whole: its size is bounded by
// the file); generated tasks are a source made on demand, so `--tasks 1000000000` plans nothing up front (see
// task-stream.ts). Tasks are stored with the run, so resume and show never regenerate a stored one.
// A held-out set can be left out by content: generated tasks whose id (a content hash) is in it are drawn again
// from derived seeds, so a training or demonstration run never sees a task of the set, however often generated
// tasks repeat (2,000 default sokoban tasks hold only 1,523 distinct rooms).
import { readFileSync } from "node:fs";
import type { AnyEnv } from "../core/env.js";
import { ConfigError, DataError } from "../core/errors.js";
import { deriveSeed } from "../core/rng.js";

export function taskSeed(runSeed: number, index: number): number {
  return deriveSeed(runSeed, "task", index);
}

/** A held-out set: the tasks generated from `seed` (taskSeed(seed, 0 .. tasks - 1)), named so it can be stored. */
export interface HeldOutSet {
  readonly seed: number;
  readonly tasks: number;
}

/** The ids of a held-out set's tasks (what exclusion compares, by content). */
export function heldOutTaskIds(env: AnyEnv, heldOut: HeldOutSet): Set<string> {
  return new Set(Array.from({ length: heldOut.tasks }, (_, index) => env.taskId(env.generate(taskSeed(heldOut.seed, index)))));
}

/** Most draws spent looking for a task outside a held-out set before giving up. */
export const MAX_TASK_DRAWS = 1000;

/** The first task of `seedOf(0), seedOf(1), ...` whose id is not excluded (attempt 0 is the seed used without exclusion). */
export function drawTask(env: AnyEnv, seedOf: (attempt: number) => number, excluded: ReadonlySet<string>): unknown {
  for (let attempt = 0; attempt < MAX_TASK_DRAWS; attempt++) {
    const task = env.generate(seedOf(attempt));
    if (!excluded.has(env.taskId(task))) return task;
  }
  throw new ConfigError("exclude", `${MAX_TASK_DRAWS} draws in a row gave tasks of the held-out set: this env config has too few distinct tasks to keep them apart`, "use an env config with more distinct tasks (more rooms, bigger maps, hanoi randomStart=true), a smaller held-out set, or for training --no-exclude-held-out");
}

/** Task `index` of a generated run: taskSeed(seed, index), drawn again while it falls in the excluded set. */
export function generatedTask(env: AnyEnv, seed: number, index: number, excluded: ReadonlySet<string> | undefined): unknown {
  if (excluded === undefined || excluded.size === 0) return env.generate(taskSeed(seed, index));
  return drawTask(env, (attempt) => (attempt === 0 ? taskSeed(seed, index) : deriveSeed(seed, "task", index, attempt)), excluded);
}

/** Where a run's tasks come from: a list known in full, or `count` tasks made one at a time from the seed. */
export type TaskSource = { readonly kind: "list"; readonly tasks: readonly unknown[] } | { readonly kind: "generated"; readonly count: number; make(index: number): unknown };

interface TaskOptions {
  readonly tasks: number;
  readonly tasksFile?: string | undefined;
  readonly seed: number;
  /** Leave out the tasks of this held-out set (generated tasks only). */
  readonly exclude?: HeldOutSet | undefined;
}

/** True when a run's tasks are a list stored whole at its start (task file, dataset), not generated as it goes. */
export function tasksAreListed(env: AnyEnv, options: Pick<TaskOptions, "tasksFile">): boolean {
  return options.tasksFile !== undefined || env.listTasks !== undefined;
}

export function taskSource(env: AnyEnv, options: TaskOptions): TaskSource {
  if (tasksAreListed(env, options)) {
    if (options.exclude !== undefined) throw new ConfigError("exclude", "a held-out set can only be left out of generated tasks, not of a task file or dataset");
    return { kind: "list", tasks: listedTasks(env, options) };
  }
  const excluded = options.exclude === undefined ? undefined : heldOutTaskIds(env, options.exclude);
  return { kind: "generated", count: options.tasks, make: (index) => generatedTask(env, options.seed, index, excluded) };
}

/** Every task of a run, in memory (fine for small runs; `evaluate` streams generated tasks instead). */
export function resolveTasks(env: AnyEnv, options: TaskOptions): unknown[] {
  const source = taskSource(env, options);
  return source.kind === "list" ? [...source.tasks] : Array.from({ length: source.count }, (_, index) => source.make(index));
}

function listedTasks(env: AnyEnv, options: TaskOptions): unknown[] {
  if (options.tasksFile !== undefined) {
    let text: string;
    try {
      text = readFileSync(options.tasksFile, "utf8");
    } catch (error) {
      throw new ConfigError("tasks-file", `cannot read ${options.tasksFile}: ${(error as Error).message}`);
    }
    let tasks: unknown[];
    try {
      tasks = env.parseTasks(text);
    } catch (error) {
      if (error instanceof DataError || error instanceof ConfigError) throw new ConfigError("tasks-file", `${options.tasksFile}: ${error.message}`);
      throw error;
    }
    if (tasks.length === 0) throw new ConfigError("tasks-file", `${options.tasksFile} holds no tasks`);
    return tasks.slice(0, options.tasks);
  }
  return (env.listTasks?.() ?? []).slice(0, options.tasks);
}
