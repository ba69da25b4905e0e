// Where an env's tasks come from and what is known about them: generation from a seed, ids, the JSON and task-file
// forms, how many distinct tasks and structures there are, and the turns a task is worth (its reference budget).
// A task is whatever type its env's TTask is; Env.tasks holds one of these.
import type { BudgetScope } from "./budget.js";
import type { Json } from "./json.js";

export interface TaskSource<TTask = unknown> {
  /** A task, fully reproducible from (env, config, seed). */
  generate(seed: number): TTask;
  /** Stable id of a task, unique within (env, config). */
  id(task: TTask): string;
  /** JSON form of a task for the store and task files, and back. */
  encode(task: TTask): Json;
  decode(json: Json): TTask;
  /** Tasks from a user file (env-specific text formats); throws DataError naming the line on bad input. */
  parse(text: string): TTask[];
  /** Why a task that a user gave (a task file, a list) cannot be played as a task, or undefined: sokoban, a level
   * that no sequence of moves solves, or one too large for its oracle. Runs check every such task with it before
   * they start; generated tasks never need it, and envs whose every well-formed task is playable omit it. */
  problem?(task: TTask): string | undefined;
  /** Dataset envs (BFCL): every task of the configured set, in a fixed order. Generated envs omit it. */
  list?(): readonly TTask[];
  /** How many distinct tasks (distinct ids) `generate` can give with this config, for envs that can say exactly and
   * cheaply (hanoi: 3^disks - 1 random starts, or the one standard start; a named frozenlake map: 1). Runs draw
   * distinct tasks, so they refuse up front to draw more than this; envs that cannot say omit it, and running out
   * is then noticed while drawing (many draws in a row that give no new task). */
  distinctTasks?(): number;
  /** What makes two tasks the same problem, in words, for reports and docs (thinice: "the playable layout: ...").
   * Tasks that differ only in what an agent can never meet (unreachable decoration) are one structure. */
  readonly structure: string;
  /** The task's structure: equal keys for tasks that are the same problem (equal tasks always have equal keys).
   * Held-out sets can be new in structure (HeldOutSet.by): no training task then shares a held-out task's key. */
  structureKey(task: TTask): string;
  /** How many distinct structures (distinct `structureKey`s) `generate` can give with this config, for envs that
   * can say exactly and cheaply: at most distinctTasks. Runs asking for more structure-distinct tasks are refused. */
  distinctStructures?(): number;
  /** What "100%" means for this task, in turns. */
  referenceBudget(task: TTask, scope: BudgetScope): number;
  /** The fewest turns in which the task can succeed (the oracle's `remaining` at reset, per user turn under
   * scope "user-turn"): what a budget written as a multiple of the optimum ("1.5x") multiplies. Envs that cannot
   * say omit it, and such budgets are refused for them. */
  optimalTurns?(task: TTask, scope: BudgetScope): number;
}
