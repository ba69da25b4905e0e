// The environment contract, Gymnasium-style for text agents, with states passed explicitly so that the
// rollout engine, oracles and analyses can hold several states of one task at once.
//
//   reset(task, {seed})      -> { state, observation, info }        first messages of the episode
//   step(state, action)      -> { state, observation, reward, terminated, info }
//
// `terminated` means the env reached an end (success or failure). Truncation (the turn budget) is applied
// from outside by the rollout engine, never by the env. `step` never throws on model text: malformed,
// empty, huge or hostile text costs the turn and comes back as an observation with `info.invalid = true`.
// `step` may mutate and return the state it was given; callers must not reuse a state after stepping it.
import type { BudgetScope } from "./budget.js";
import type { Json } from "./json.js";
import type { Message, ToolSpec } from "./message.js";

export const STOP_REASONS = ["success", "failure", "max_turns", "force_terminated", "error", "context_length"] as const;
/** Why an episode ended: success, failure (env end without success), max_turns (our budget),
 * force_terminated (an env's own hard limit, e.g. BFCL's 20 steps per user turn), error (policy failed),
 * context_length (the conversation outgrew the model's context: counted as a failure of the agent). */
export type StopReason = (typeof STOP_REASONS)[number];

export interface StepInfo {
  /** A number the env computes from its state (e.g. minus the oracle distance); turn-level rewards use its change. */
  readonly progress: number;
  /** Canonical hash of the env state: equal states give equal keys (GiGPO groups by it). */
  readonly stateKey: string;
  /** Set when the step ended the episode. */
  readonly stopReason?: StopReason;
  /** The action could not be parsed or was not allowed; the turn was spent. */
  readonly invalid: boolean;
  /** Canonical text of the parsed action, or null if none could be parsed. */
  readonly parsedAction: string | null;
  /** Index of the current user turn, for envs whose tasks have several (BFCL); 0 otherwise. */
  readonly segment: number;
  /** Env-specific details (checker verdicts, ...): JSON so that the store can keep them. */
  readonly details?: Json;
}

export interface ResetResult<TState> {
  readonly state: TState;
  readonly observation: readonly Message[];
  readonly info: StepInfo;
  /** Functions the policy may call from the start (envs with tools only). */
  readonly tools?: readonly ToolSpec[];
}

export interface StepResult<TState> {
  readonly state: TState;
  readonly observation: readonly Message[];
  readonly reward: number;
  readonly terminated: boolean;
  readonly info: StepInfo;
  /** The new full set of callable functions, when it changed in this step. */
  readonly tools?: readonly ToolSpec[];
}

/** What an oracle knows about a state: the optimal next actions, the optimal number of turns left to success,
 * and the success probability under optimal play. Asked with `turnsLeft` (the turns left in the budget), the
 * answer is budget-aware: `optimal` maximises the probability of success within those turns and `value` is
 * that probability. Asked without, it is for an unlimited horizon. Either way, among equally valued actions
 * the optimal ones minimise the expected number of turns to success (exact ties stay ties); when success
 * within the turns left is impossible, the unlimited-horizon optimal actions are given. For deterministic
 * envs the set is the shortest-path moves at every horizon, and the value is 1 when `remaining <= turnsLeft`. */
export interface OracleAnswer {
  /** Canonical texts of every optimal action (empty in a terminal or dead state). */
  readonly optimal: readonly string[];
  /** Optimal number of remaining turns to success (the fewest with a positive chance); Infinity when success
   * is impossible. It does not depend on `turnsLeft`. */
  readonly remaining: number;
  /** Success probability under optimal play: within `turnsLeft` turns when asked with it, else with unlimited
   * time; 1 or 0 for deterministic envs. Optional: envs that cannot say omit it. */
  readonly value?: number;
}

export interface Env<TTask = unknown, TState = unknown> {
  /** Registry name, e.g. "sokoban". */
  readonly name: string;
  /** The resolved configuration the env was built with (stored with every run). */
  readonly config: Json;
  /** A task, fully reproducible from (env, config, seed). */
  generate(seed: number): TTask;
  /** Stable id of a task, unique within (env, config). */
  taskId(task: TTask): string;
  /** JSON form of a task for the store and task files, and back. */
  encodeTask(task: TTask): Json;
  decodeTask(json: Json): TTask;
  /** Tasks from a user file (env-specific text formats); throws DataError naming the line on bad input. */
  parseTasks(text: string): TTask[];
  /** Why a task that a user gave (a task file, a list) cannot be played as a task, or undefined: sokoban, a level
   * that no sequence of moves solves, or one too large for its oracle. Runs check every such task with it before
   * they start; generated tasks never need it, and envs whose every well-formed task is playable omit it. */
  taskProblem?(task: TTask): string | undefined;
  /** What "100%" means for this task, in turns. */
  referenceBudget(task: TTask, scope: BudgetScope): number;
  /** The fewest turns in which the task can succeed (the oracle's `remaining` at reset, per user turn under
   * scope "user-turn"): what a budget written as a multiple of the optimum ("1.5x") multiplies. Envs that cannot
   * say omit it, and such budgets are refused for them. */
  optimalTurns?(task: TTask, scope: BudgetScope): number;
  reset(task: TTask, options: { readonly seed: number }): ResetResult<TState>;
  step(state: TState, action: Message): StepResult<TState>;
  /** Optimal actions, remaining turns and value from any state: within `turnsLeft` turns (an integer >= 0)
   * when given, else for an unlimited horizon (see OracleAnswer). Envs whose answers do not depend on the
   * horizon may ignore `turnsLeft`. */
  oracle(state: TState, turnsLeft?: number): OracleAnswer;
  /** Progress of a state when `turnsLeft` turns remain, for envs whose progress signal depends on the horizon
   * (frozenlake: the success probability within the turns left). The rollout engine records it in place of
   * `info.progress`, which is the unlimited-horizon progress; envs without it have budget-free progress. */
  progressWithin?(state: TState, turnsLeft: number): number;
  /** The canonical action a reply would play in this state, without playing it (null: it does not parse).
   * Teacher-forced rollouts judge the policy's answer with it while the expert's action is played. */
  parseAction?(state: TState, action: Message): string | null;
  /** Canonical texts of the actions available in a state (what a random policy chooses from). */
  validActions(state: TState): readonly string[];
  stateKey(state: TState): string;
  /** Dataset envs (BFCL): every task of the configured set, in a fixed order. Generated envs omit it. */
  listTasks?(): readonly TTask[];
  /** How many distinct tasks (distinct `taskId`s) `generate` can give with this config, for envs that can say
   * exactly and cheaply (hanoi: 3^disks - 1 random starts, or the one standard start; a named frozenlake map: 1).
   * Runs draw distinct tasks, so they refuse up front to draw more than this; envs that cannot say omit it, and
   * running out is then noticed while drawing (many draws in a row that give no new task). */
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
  /** The message a scripted policy sends for a canonical action text (envs with tools turn it into tool calls);
   * without it the text is sent as the assistant's content. */
  actionMessage?(state: TState, action: string): Message;
}

/** An env of any task and state type, as the registry and the rollout engine hold it. */
export type AnyEnv = Env<unknown, unknown>;

/** An env and the config it was built with, for messages: "hanoi disks=3 randomStart=true referenceFactor=4". */
export function envLabel(env: AnyEnv): string {
  const config = env.config !== null && typeof env.config === "object" && !Array.isArray(env.config) ? env.config : {};
  const options = Object.entries(config).filter(([, value]) => value !== null && value !== undefined);
  return [
    env.name,
    ...options.map(([name, value]) => `${name}=${typeof value === "string" ? value : JSON.stringify(value)}`),
  ].join(" ");
}
