// The task list of a run: the first N tasks of a task file, the first N of a dataset env (BFCL), or N tasks
// generated from seeds derived from the run seed. A file or dataset is a list (read whole: its size is bounded by
// the file); generated tasks are a source made on demand, so `--tasks 1000000000` plans nothing up front (see
// task-stream.ts). Tasks are stored with the run, so resume and show never regenerate a stored one.
// A run's tasks are distinct by content (the task id is a content hash), so that its means are over N distinct
// tasks and the bootstrap over tasks never counts one twice (200 plain draws of 4x4 frozenlake maps hold about
// 140 distinct ones):
//   generated  task i is drawn from taskSeed(seed, i), and again from seeds derived from (seed, i, attempt) while
//              its id was drawn before in the run or belongs to a held-out set left out (`exclude`). Task i depends
//              on the tasks before it, which depend on the seed only, so every run with the same seed draws the same
//              tasks; a resumed run rebuilds the drawn ids from its stored tasks (TaskDraws.recall). An env that
//              knows how many distinct tasks it has (Env.distinctTasks) refuses to draw more before any work; with
//              the others a run gives up after MAX_TASK_DRAWS draws in a row that gave no new task, saying how many
//              distinct tasks it found.
//   listed     a task file or a list handed to evaluate() may not repeat a task (refused, naming both); the first N
//              are used as they are. A dataset (BFCL) lists each entry once.
// A held-out set {seed, tasks} is the first `tasks` tasks generated from `seed`: exactly the tasks an eval with
// that seed and `--tasks` draws.
import { readFileSync } from "node:fs";
import { envLabel, type AnyEnv } from "../core/env.js";
import { BudgetrlError, ConfigError, DataError } from "../core/errors.js";
import { deriveSeed } from "../core/rng.js";

export function taskSeed(runSeed: number, index: number): number {
  return deriveSeed(runSeed, "task", index);
}

/** A held-out set: the first `tasks` distinct tasks generated from `seed`, named so it can be stored. */
export interface HeldOutSet {
  readonly seed: number;
  readonly tasks: number;
}

/** Most draws in a row spent looking for a task that is neither drawn before nor held out, before giving up. */
export const MAX_TASK_DRAWS = 1000;

/** Ids a draw must avoid: a held-out set, the tasks drawn before, or both. */
export type TakenIds = Pick<ReadonlySet<string>, "has">;

/** The first task of `seedOf(0), seedOf(1), ...` whose id is not taken (attempt 0 is the seed used when nothing
 * is taken), with its id; undefined when MAX_TASK_DRAWS draws in a row were all taken. */
export function drawTask(env: AnyEnv, seedOf: (attempt: number) => number, taken: TakenIds): { readonly task: unknown; readonly id: string } | undefined {
  for (let attempt = 0; attempt < MAX_TASK_DRAWS; attempt++) {
    const task = env.generate(seedOf(attempt));
    const id = env.taskId(task);
    if (!taken.has(id)) return { task, id };
  }
  return undefined;
}

/** Refuses, before any work, to draw more distinct tasks than the env config has (when the env can say). */
export function checkDistinctCount(env: AnyEnv, count: number, heldOut: number, field: string): void {
  const distinct = env.distinctTasks?.();
  if (distinct === undefined || count <= distinct - heldOut) return;
  const left = heldOut === 0 ? "" : `, ${heldOut} of them held out (${Math.max(0, distinct - heldOut)} left)`;
  throw new ConfigError(field, `${envLabel(env)} has only ${distinct} distinct task${distinct === 1 ? "" : "s"}${left}, fewer than the ${count} asked for`, `ask for at most ${Math.max(0, distinct - heldOut)}, or use an env config with more distinct tasks`);
}

/** The tasks of a generated run, drawn in index order (each call is for the next index). */
export interface TaskDraws {
  /** Task `index`: distinct from every task drawn or recalled before, outside the held-out set. */
  make(index: number): unknown;
  /** Task `index` was drawn before and is read back from the store (a resumed run): later draws avoid its id. */
  recall(index: number, id: string): void;
}

interface DrawOptions {
  /** Ids never to draw (a held-out set). */
  readonly excluded?: ReadonlySet<string>;
  /** Tasks the run asks for (named in the message when the env runs out). */
  readonly count: number;
  /** The config field that asked for them. */
  readonly field: string;
}

/** Task `index` of the run seeded `seed` at draw `attempt`: taskSeed for the first, derived seeds after. */
function attemptSeed(seed: number, index: number, attempt: number): number {
  return attempt === 0 ? taskSeed(seed, index) : deriveSeed(seed, "task", index, attempt);
}

function ranOut(env: AnyEnv, drawn: number, options: DrawOptions): ConfigError {
  const held = (options.excluded?.size ?? 0) > 0 ? ` (besides the ${options.excluded?.size} held-out ones)` : "";
  return new ConfigError(
    options.field,
    `${envLabel(env)} gave no new task in ${MAX_TASK_DRAWS} draws in a row after ${drawn} distinct task${drawn === 1 ? "" : "s"}${held}: it has too few distinct tasks for the ${options.count} asked for`,
    `ask for at most ${drawn}, or use an env config with more distinct tasks (more rooms or boxes, bigger maps, hanoi randomStart=true)`,
  );
}

/** The distinct tasks of a generated run seeded `seed` (see the header). */
export function taskDraws(env: AnyEnv, seed: number, options: DrawOptions): TaskDraws {
  const excluded = options.excluded ?? new Set<string>();
  const drawn = new Set<string>();
  let next = 0;
  let repeated: number | undefined;
  const inOrder = (index: number): void => {
    if (index !== next) throw new BudgetrlError("tasks:order", `task ${index} was asked for before task ${next}`, "generated tasks depend on the ones before them: make or recall them in index order");
    next++;
  };
  const taken: TakenIds = { has: (id) => drawn.has(id) || excluded.has(id) };
  return {
    recall(index, id) {
      inOrder(index);
      if (drawn.has(id)) repeated ??= index;
      drawn.add(id);
    },
    make(index) {
      if (repeated !== undefined) {
        throw new DataError(`the run's stored task ${repeated} repeats an earlier one: the run was made before runs drew distinct tasks, so its remaining tasks cannot be drawn as it drew them`, "start a new run (this one can still be shown and exported)");
      }
      inOrder(index);
      const found = drawTask(env, (attempt) => attemptSeed(seed, index, attempt), taken);
      if (found === undefined) throw ranOut(env, drawn.size, options);
      drawn.add(found.id);
      return found.task;
    },
  };
}

/** The ids of a held-out set's tasks (what exclusion compares, by content); `field` names the set in errors. An env
 * whose tasks are a list (a dataset: bfcl) is played in its order, so its held-out set of N is its first N entries,
 * the tasks every evaluation of N tasks plays (the seed draws nothing there). */
export function heldOutTaskIds(env: AnyEnv, heldOut: HeldOutSet, field = "exclude"): Set<string> {
  checkDistinctCount(env, heldOut.tasks, 0, field);
  if (env.listTasks !== undefined) return new Set(env.listTasks().slice(0, heldOut.tasks).map((task) => env.taskId(task)));
  const draws = taskDraws(env, heldOut.seed, { count: heldOut.tasks, field });
  return new Set(Array.from({ length: heldOut.tasks }, (_, index) => env.taskId(draws.make(index))));
}

/** Where a run's tasks come from: a list known in full, or `count` distinct tasks drawn one at a time from the seed. */
export type TaskSource = { readonly kind: "list"; readonly tasks: readonly unknown[] } | { readonly kind: "generated"; readonly count: number; readonly draws: TaskDraws };

interface TaskOptions {
  readonly tasks: number;
  readonly tasksFile?: string | undefined;
  readonly seed: number;
  /** Leave out the tasks of this held-out set (generated tasks, or an env's own list: not a task file). */
  readonly exclude?: HeldOutSet | undefined;
}

/** True when a run's tasks are a list stored whole at its start (task file, dataset), not generated as it goes. */
export function tasksAreListed(env: AnyEnv, options: Pick<TaskOptions, "tasksFile">): boolean {
  return options.tasksFile !== undefined || env.listTasks !== undefined;
}

/** A run's tasks; refuses, before any work, a list that repeats a task or more distinct tasks than the env has. */
export function taskSource(env: AnyEnv, options: TaskOptions): TaskSource {
  if (tasksAreListed(env, options)) {
    if (options.exclude !== undefined && options.tasksFile !== undefined) throw new ConfigError("exclude", "a held-out set can only be left out of generated tasks or an env's own list, not of a task file");
    return { kind: "list", tasks: listedTasks(env, options) };
  }
  const excluded = options.exclude === undefined ? undefined : heldOutTaskIds(env, options.exclude);
  checkDistinctCount(env, options.tasks, excluded?.size ?? 0, "tasks");
  return { kind: "generated", count: options.tasks, draws: taskDraws(env, options.seed, { ...(excluded === undefined ? {} : { excluded }), count: options.tasks, field: "tasks" }) };
}

/** Every task of a run, in memory (fine for small runs; `evaluate` streams generated tasks instead). */
export function resolveTasks(env: AnyEnv, options: TaskOptions): unknown[] {
  const source = taskSource(env, options);
  return source.kind === "list" ? [...source.tasks] : Array.from({ length: source.count }, (_, index) => source.draws.make(index));
}

/** Refuses a list of tasks that holds one twice; `name(index)` says where a task is ("task 3 of levels.txt"). */
export function checkListedDistinct(env: AnyEnv, tasks: readonly unknown[], field: string, name: (index: number) => string): void {
  const first = new Map<string, number>();
  tasks.forEach((task, index) => {
    const id = env.taskId(task);
    const earlier = first.get(id);
    if (earlier !== undefined) throw new ConfigError(field, `${name(index)} repeats ${name(earlier)} (${id}): a run's tasks are distinct, so that no task counts twice in its means`, "drop the repeat");
    first.set(id, index);
  });
}

/** Refuses a list of tasks that holds one the env cannot play (an unsolvable sokoban level), naming it; problems
 * the env throws (DataError) are named the same way. */
export function checkListedPlayable(env: AnyEnv, tasks: readonly unknown[], field: string, name: (index: number) => string): void {
  if (env.taskProblem === undefined) return;
  tasks.forEach((task, index) => {
    let problem: string | undefined;
    try {
      problem = env.taskProblem?.(task);
    } catch (error) {
      if (!(error instanceof DataError)) throw error;
      problem = error.message.replace(/\nHINT: /, "; ");
    }
    if (problem !== undefined) throw new ConfigError(field, `${name(index)} ${problem}`);
  });
}

function listedTasks(env: AnyEnv, options: TaskOptions): unknown[] {
  if (options.tasksFile === undefined) {
    // The list without the held-out set's entries (its first ones: heldOutTaskIds), in order.
    const excluded = options.exclude === undefined ? undefined : heldOutTaskIds(env, options.exclude);
    const tasks = (env.listTasks?.() ?? []).filter((task) => excluded?.has(env.taskId(task)) !== true).slice(0, options.tasks);
    checkListedDistinct(env, tasks, "env", (index) => `entry ${index + 1} of ${env.name}`);
    return tasks;
  }
  const file = options.tasksFile;
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    throw new ConfigError("tasks-file", `cannot read ${file}: ${(error as Error).message}`);
  }
  let tasks: unknown[];
  try {
    tasks = env.parseTasks(text);
  } catch (error) {
    if (error instanceof DataError || error instanceof ConfigError) throw new ConfigError("tasks-file", `${file}: ${error.message}`);
    throw error;
  }
  if (tasks.length === 0) throw new ConfigError("tasks-file", `${file} holds no tasks`);
  const used = tasks.slice(0, options.tasks);
  checkListedDistinct(env, used, "tasks-file", (index) => `task ${index + 1} of ${file}`);
  checkListedPlayable(env, used, "tasks-file", (index) => `task ${index + 1} of ${file}`);
  return used;
}
