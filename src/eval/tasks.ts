// The task list of a run: the first N tasks of a task file, the first N of a dataset env (BFCL), or N tasks
// generated from seeds derived from the run seed. A file or dataset is a list (read whole: its size is bounded by
// the file); generated tasks are a source made on demand, so `--tasks 1000000000` plans nothing up front (see
// task-stream.ts). Tasks are stored with the run, so resume and show never regenerate a stored one.
import { readFileSync } from "node:fs";
import type { AnyEnv } from "../core/env.js";
import { ConfigError, DataError } from "../core/errors.js";
import { deriveSeed } from "../core/rng.js";

export function taskSeed(runSeed: number, index: number): number {
  return deriveSeed(runSeed, "task", index);
}

/** Where a run's tasks come from: a list known in full, or `count` tasks made one at a time from the seed. */
export type TaskSource = { readonly kind: "list"; readonly tasks: readonly unknown[] } | { readonly kind: "generated"; readonly count: number; make(index: number): unknown };

interface TaskOptions {
  readonly tasks: number;
  readonly tasksFile?: string | undefined;
  readonly seed: number;
}

/** True when a run's tasks are a list stored whole at its start (task file, dataset), not generated as it goes. */
export function tasksAreListed(env: AnyEnv, options: Pick<TaskOptions, "tasksFile">): boolean {
  return options.tasksFile !== undefined || env.listTasks !== undefined;
}

export function taskSource(env: AnyEnv, options: TaskOptions): TaskSource {
  if (tasksAreListed(env, options)) return { kind: "list", tasks: listedTasks(env, options) };
  return { kind: "generated", count: options.tasks, make: (index) => env.generate(taskSeed(options.seed, index)) };
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
