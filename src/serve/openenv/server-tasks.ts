// The tasks `budgetrl env-server` serves, by index, as an evaluation with the same --seed, --tasks and --exclude
// draws them (eval/tasks.ts: the first N of a dataset env's list, or N distinct tasks drawn from the seed, a held-out
// set left out), so that task i of the server is task i of `budgetrl eval --seed S`. A reset names one by its index
// (`task: 3`), by its id (`task: "multi_turn_base_12"`; a held-out id is refused), or by OpenEnv's seed alone (task
// seed mod N); with none, the tasks are served in turn.
import type { AnyEnv } from "../../core/env.js";
import { taskSource, type HeldOutSet, type HeldOutTasks } from "../../eval/tasks.js";
import { heldOutTasks, isHeldOut, NO_HELD_OUT } from "../../agent/task-draws.js";

export interface ServerTask {
  readonly index: number;
  readonly task: unknown;
  readonly id: string;
}

export interface ServerTasks {
  /** How many tasks the server serves. */
  readonly count: number;
  /** Task `index` (0 <= index < count). */
  at(index: number): ServerTask;
  /** The task of this id among the served ones; a string saying why not (held out, unknown). */
  byId(id: string): ServerTask | string;
  /** The next task in turn (resets that name none). */
  next(): ServerTask;
}

export interface ServerTaskOptions {
  readonly tasks: number;
  readonly seed: number;
  readonly exclude?: HeldOutSet | undefined;
}

export function serverTasks(env: AnyEnv, options: ServerTaskOptions): ServerTasks {
  // At most the env's distinct tasks (hanoi's one standard start), less the held-out ones.
  const heldOutCount = options.exclude === undefined ? 0 : heldOutTasks(env, options.exclude, "exclude").ids.size;
  const distinct = env.tasks.distinctTasks?.();
  const tasks = distinct === undefined ? options.tasks : Math.max(1, Math.min(options.tasks, distinct - heldOutCount));
  const source = taskSource(env, { tasks, seed: options.seed, exclude: options.exclude });
  const heldOut: HeldOutTasks =
    options.exclude === undefined ? NO_HELD_OUT : heldOutTasks(env, options.exclude, "exclude");
  const made: ServerTask[] = [];
  const count = source.kind === "list" ? source.tasks.length : source.count;
  const at = (index: number): ServerTask => {
    while (made.length <= index) {
      const i = made.length;
      const task = source.kind === "list" ? source.tasks[i] : source.draws.make(i);
      made.push({ index: i, task, id: env.tasks.id(task) });
    }
    return made[index]!;
  };
  let turn = 0;
  return {
    count,
    at,
    byId(id) {
      if (heldOut.ids.has(id)) return `task ${id} is held out (the server was started with --exclude)`;
      for (let index = 0; index < count; index++) if (at(index).id === id) return at(index);
      const listed = env.tasks.list?.().find((task) => env.tasks.id(task) === id);
      if (listed !== undefined && isHeldOut(env, heldOut, listed, id))
        return `task ${id} is held out (the server was started with --exclude)`;
      return `no task ${id} among the server's ${count} tasks`;
    },
    next() {
      const task = at(turn % count);
      turn++;
      return task;
    },
  };
}
