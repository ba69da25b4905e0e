// Distinct tasks drawn from seeds, and held-out sets: what eval's generated task lists and RL's step tasks both
// draw with, so it lives below both (eval and rl import it; it imports core only).
// A task is known by its id, a content hash, so "distinct" and "held out" compare content:
//   drawTask     the first task of seedOf(0), seedOf(1), ... whose id is not taken (drawn before, or held out);
//                undefined after MAX_TASK_DRAWS draws in a row that were all taken
//   taskDraws    the tasks of a generated run seeded `seed`: task i from taskSeed(seed, i), and again from seeds
//                derived from (seed, i, attempt) while its id was drawn before in the run or is held out. Task i
//                depends on the tasks before it, which depend on the seed only, so every run with the same seed
//                draws the same tasks; a resumed run rebuilds the drawn ids from its stored tasks (recall)
//   heldOutTaskIds  a held-out set {seed, tasks} is the first `tasks` tasks generated from `seed`: exactly the
//                tasks an eval with that seed and `--tasks` draws
// An env that knows how many distinct tasks it has (Env.distinctTasks) is refused more before any work
// (checkDistinctCount); with the others a draw gives up after MAX_TASK_DRAWS draws in a row, saying how many
// distinct tasks it found.
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
export function drawTask(
  env: AnyEnv,
  seedOf: (attempt: number) => number,
  taken: TakenIds,
): { readonly task: unknown; readonly id: string } | undefined {
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
  throw new ConfigError(
    field,
    `${envLabel(env)} has only ${distinct} distinct task${distinct === 1 ? "" : "s"}${left}, fewer than the ${count} asked for`,
    `ask for at most ${Math.max(0, distinct - heldOut)}, or use an env config with more distinct tasks`,
  );
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
    if (index !== next)
      throw new BudgetrlError(
        "tasks:order",
        `task ${index} was asked for before task ${next}`,
        "generated tasks depend on the ones before them: make or recall them in index order",
      );
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
        throw new DataError(
          `the run's stored task ${repeated} repeats an earlier one: the run was made before runs drew distinct tasks, so its remaining tasks cannot be drawn as it drew them`,
          "start a new run (this one can still be shown and exported)",
        );
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
  if (env.listTasks !== undefined)
    return new Set(
      env
        .listTasks()
        .slice(0, heldOut.tasks)
        .map((task) => env.taskId(task)),
    );
  const draws = taskDraws(env, heldOut.seed, { count: heldOut.tasks, field });
  return new Set(Array.from({ length: heldOut.tasks }, (_, index) => env.taskId(draws.make(index))));
}
