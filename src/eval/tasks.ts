// The task list of a run: the first N tasks of a task file, the first N of a dataset env (BFCL), or N tasks
// generated from seeds derived from the run seed. The list is stored with the run, so resume and show never
// regenerate it.
import { readFileSync } from "node:fs";
import type { AnyEnv } from "../core/env.js";
import { ConfigError, DataError } from "../core/errors.js";
import { deriveSeed } from "../core/rng.js";

export function taskSeed(runSeed: number, index: number): number {
  return deriveSeed(runSeed, "task", index);
}

export function resolveTasks(env: AnyEnv, options: { readonly tasks: number; readonly tasksFile?: string | undefined; readonly seed: number }): unknown[] {
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
  if (env.listTasks !== undefined) return env.listTasks().slice(0, options.tasks);
  return Array.from({ length: options.tasks }, (_, index) => env.generate(taskSeed(options.seed, index)));
}
