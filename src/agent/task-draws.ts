// Distinct tasks drawn from seeds, and held-out sets: what eval's generated task lists and RL's step tasks both
// draw with, so it lives below both (eval and rl import it; it imports core only).
// Tasks are told apart by content (the task id, a content hash) or by structure (the env's structureKey: what makes
// two tasks the same problem, e.g. a thin ice map's playable layout without its unreachable decoration):
//   drawTask     the first task of seedOf(0), seedOf(1), ... that is not taken (drawn before, or held out);
//                undefined after MAX_TASK_DRAWS draws in a row that were all taken
//   taskDraws    the tasks of a generated run seeded `seed`: task i from taskSeed(seed, i), and again from seeds
//                derived from (seed, i, attempt) while it was drawn before in the run (its id, or with distinct
//                "structure" its structure) or is held out. Task i depends on the tasks before it, which depend on
//                the seed only, so every run with the same seed draws the same tasks; a resumed run rebuilds what
//                it drew from its stored tasks (recall)
//   heldOutTasks a held-out set {seed, tasks, by} is the first `tasks` tasks generated from `seed`, distinct `by`
//                content (default) or structure: exactly the tasks an eval with that seed, `--tasks` and
//                `--distinct` draws. What it holds out (HeldOutTasks, isHeldOut): its tasks' ids, and for a set by
//                structure every task of its structures, so that training never meets a held-out problem again
//                with other decoration
// An env that knows how many distinct tasks (structures) it has (env.tasks.distinctTasks, distinctStructures) is
// refused more before any work (checkDistinctCount); with the others a draw gives up after MAX_TASK_DRAWS draws in a
// row, saying how many it found.
import { envLabel, type PlayableEnv } from "../core/env.js";
import { BudgetrlError, ConfigError, DataError } from "../core/errors.js";
import { deriveSeed } from "../core/rng.js";

export function taskSeed(runSeed: number, index: number): number {
  return deriveSeed(runSeed, "task", index);
}

/** What tasks are told apart by: their content (the task id) or their structure (the env's structureKey). */
export const TASK_DISTINCTIONS = ["content", "structure"] as const;
export type TaskDistinction = (typeof TASK_DISTINCTIONS)[number];
/** What tasks are distinct in when nothing says. */
export const DEFAULT_TASK_DISTINCTION: TaskDistinction = "content";

/** A held-out set: the first `tasks` tasks generated from `seed`, pairwise distinct `by` content (the default) or
 * structure, named so it can be stored. */
export interface HeldOutSet {
  readonly seed: number;
  readonly tasks: number;
  /** content (default): its tasks are held out; structure: its tasks are of distinct structures, and every task of
   * those structures is held out. */
  readonly by?: TaskDistinction;
}

/** What a draw must never give (a held-out set, or several joined): tasks with these ids, and tasks with these
 * structure keys (empty unless a set is by structure). Ask with isHeldOut. */
export interface HeldOutTasks {
  readonly ids: ReadonlySet<string>;
  readonly structures: ReadonlySet<string>;
}

/** Nothing held out. */
export const NO_HELD_OUT: HeldOutTasks = Object.freeze({ ids: new Set<string>(), structures: new Set<string>() });

/** Whether a task (with its id) is held out: its id is, or its structure is. */
export function isHeldOut(env: PlayableEnv, heldOut: HeldOutTasks, task: unknown, id: string): boolean {
  return heldOut.ids.has(id) || (heldOut.structures.size > 0 && heldOut.structures.has(env.tasks.structureKey(task)));
}

/** Several held-out sets as one: what any of them holds out. */
export function joinHeldOut(sets: readonly HeldOutTasks[]): HeldOutTasks {
  return {
    ids: new Set(sets.flatMap((set) => [...set.ids])),
    structures: new Set(sets.flatMap((set) => [...set.structures])),
  };
}

/** Most draws in a row spent looking for a task that is neither drawn before nor held out, before giving up. */
export const MAX_TASK_DRAWS = 1000;

/** The first task of `seedOf(0), seedOf(1), ...` that is not taken (attempt 0 is the seed used when nothing is
 * taken), with its id; undefined when MAX_TASK_DRAWS draws in a row were all taken. */
export function drawTask(
  env: PlayableEnv,
  seedOf: (attempt: number) => number,
  taken: (task: unknown, id: string) => boolean,
): { readonly task: unknown; readonly id: string } | undefined {
  for (let attempt = 0; attempt < MAX_TASK_DRAWS; attempt++) {
    const task = env.tasks.generate(seedOf(attempt));
    const id = env.tasks.id(task);
    if (!taken(task, id)) return { task, id };
  }
  return undefined;
}

/** Refuses, before any work, to draw more distinct tasks (or, `by` structure, tasks of distinct structures) than
 * the env config has, `heldOut` of them held out (when the env can say). */
export function checkDistinctCount(
  env: PlayableEnv,
  count: number,
  heldOut: number,
  field: string,
  by: TaskDistinction = "content",
): void {
  const distinct = by === "structure" ? env.tasks.distinctStructures?.() : env.tasks.distinctTasks?.();
  if (distinct === undefined || count <= distinct - heldOut) return;
  const what = by === "structure" ? "distinct structure" : "distinct task";
  const left = heldOut === 0 ? "" : `, ${heldOut} of them held out (${Math.max(0, distinct - heldOut)} left)`;
  throw new ConfigError(
    field,
    `${envLabel(env)} has only ${distinct} ${what}${distinct === 1 ? "" : "s"}${left}, fewer than the ${count} asked for`,
    `ask for at most ${Math.max(0, distinct - heldOut)}, or use an env config with more ${what}s`,
  );
}

/** The tasks of a generated run, drawn in index order (each call is for the next index). */
export interface TaskDraws {
  /** Task `index`: distinct from every task drawn or recalled before, outside the held-out set. */
  make(index: number): unknown;
  /** Task `index` (with its id) was drawn before and is read back from the store (a resumed run): later draws
   * avoid it. */
  recall(index: number, id: string, task: unknown): void;
}

interface DrawOptions {
  /** Tasks never to draw (held-out sets). */
  readonly heldOut?: HeldOutTasks;
  /** What the run's tasks are distinct in (default content). */
  readonly distinct?: TaskDistinction;
  /** Tasks the run asks for (named in the message when the env runs out). */
  readonly count: number;
  /** The config field that asked for them. */
  readonly field: string;
}

/** Task `index` of the run seeded `seed` at draw `attempt`: taskSeed for the first, derived seeds after. */
function attemptSeed(seed: number, index: number, attempt: number): number {
  return attempt === 0 ? taskSeed(seed, index) : deriveSeed(seed, "task", index, attempt);
}

function ranOut(env: PlayableEnv, drawn: number, options: DrawOptions): ConfigError {
  const heldOut = options.heldOut ?? NO_HELD_OUT;
  const structures =
    heldOut.structures.size > 0 ? ` and every task of their ${heldOut.structures.size} structures` : "";
  const held = heldOut.ids.size > 0 ? ` (besides the ${heldOut.ids.size} held-out ones${structures})` : "";
  const what = options.distinct === "structure" ? "task of a new structure" : "new task";
  const found = options.distinct === "structure" ? "distinct structure" : "distinct task";
  return new ConfigError(
    options.field,
    `${envLabel(env)} gave no ${what} in ${MAX_TASK_DRAWS} draws in a row after ${drawn} ${found}${drawn === 1 ? "" : "s"}${held}: it has too few ${found}s for the ${options.count} asked for`,
    `ask for at most ${drawn}, or use an env config with more ${found}s (more rooms or boxes, bigger maps, hanoi randomStart=true)`,
  );
}

/** The distinct tasks of a generated run seeded `seed` (see the header). */
export function taskDraws(env: PlayableEnv, seed: number, options: DrawOptions): TaskDraws {
  const heldOut = options.heldOut ?? NO_HELD_OUT;
  const byStructure = options.distinct === "structure";
  const drawn = new Set<string>();
  const structures = new Set<string>();
  let next = 0;
  /** The first recalled task that repeats an earlier one (its id, or only its structure). */
  let repeated: { readonly index: number; readonly structureOnly: boolean } | undefined;
  const inOrder = (index: number): void => {
    if (index !== next)
      throw new BudgetrlError(
        "tasks:order",
        `task ${index} was asked for before task ${next}`,
        "generated tasks depend on the ones before them: make or recall them in index order",
      );
    next++;
  };
  const drawnBefore = (task: unknown, id: string): boolean =>
    drawn.has(id) || (byStructure && structures.has(env.tasks.structureKey(task)));
  const add = (task: unknown, id: string): void => {
    drawn.add(id);
    if (byStructure) structures.add(env.tasks.structureKey(task));
  };
  const taken = (task: unknown, id: string): boolean => drawnBefore(task, id) || isHeldOut(env, heldOut, task, id);
  return {
    recall(index, id, task) {
      inOrder(index);
      if (drawnBefore(task, id)) repeated ??= { index, structureOnly: !drawn.has(id) };
      add(task, id);
    },
    make(index) {
      if (repeated !== undefined) {
        const why = repeated.structureOnly
          ? "is the same problem as an earlier one: the run was drawn with another definition of the env's structure"
          : "repeats an earlier one: the run was made before runs drew distinct tasks";
        throw new DataError(
          `the run's stored task ${repeated.index} ${why}, so its remaining tasks cannot be drawn as it drew them`,
          "start a new run (this one can still be shown and exported)",
        );
      }
      inOrder(index);
      const found = drawTask(env, (attempt) => attemptSeed(seed, index, attempt), taken);
      if (found === undefined) throw ranOut(env, byStructure ? structures.size : drawn.size, options);
      add(found.task, found.id);
      return found.task;
    },
  };
}

/** The tasks of a list (a dataset env's entries, in order) that a run by `distinct` plays: those not held out, and
 * with distinct "structure" only the first of each structure. */
export function listedDistinct(
  env: PlayableEnv,
  tasks: readonly unknown[],
  distinct: TaskDistinction,
  heldOut: HeldOutTasks = NO_HELD_OUT,
): unknown[] {
  const structures = new Set<string>();
  return tasks.filter((task) => {
    if (isHeldOut(env, heldOut, task, env.tasks.id(task))) return false;
    if (distinct === "content") return true;
    const key = env.tasks.structureKey(task);
    if (structures.has(key)) return false;
    structures.add(key);
    return true;
  });
}

/** What a held-out set holds out (see the header); `field` names the set in errors. An env whose tasks are a list (a
 * dataset: bfcl) is played in its order, so its held-out set of N is its first N entries (by structure: the first N
 * of distinct structures), the tasks every evaluation of N tasks plays (the seed draws nothing there). */
export function heldOutTasks(env: PlayableEnv, heldOut: HeldOutSet, field = "exclude"): HeldOutTasks {
  const by = heldOut.by ?? DEFAULT_TASK_DISTINCTION;
  checkDistinctCount(env, heldOut.tasks, 0, field, by);
  let tasks: unknown[];
  if (env.tasks.list !== undefined) tasks = listedDistinct(env, env.tasks.list(), by).slice(0, heldOut.tasks);
  else {
    const draws = taskDraws(env, heldOut.seed, { count: heldOut.tasks, field, distinct: by });
    tasks = Array.from({ length: heldOut.tasks }, (_, index) => draws.make(index));
  }
  return {
    ids: new Set(tasks.map((task) => env.tasks.id(task))),
    structures: by === "structure" ? new Set(tasks.map((task) => env.tasks.structureKey(task))) : new Set<string>(),
  };
}

/** The ids of a held-out set's tasks, in the order they were drawn (what a held-out.json lists). */
export function heldOutTaskIds(env: PlayableEnv, heldOut: HeldOutSet, field = "exclude"): ReadonlySet<string> {
  return heldOutTasks(env, heldOut, field).ids;
}
