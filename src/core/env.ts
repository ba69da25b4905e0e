// The environment contract, Gymnasium-style for text agents, with states passed explicitly so that the
// rollout engine, oracles and analyses can hold several states of one task at once.
//
//   reset(task, {seed})      -> { state, observation, info }        first messages of the episode
//   step(state, action)      -> { state, observation, reward, terminated, info }
//
// Beside those two, an env holds its spec (name and config), its task source (core/task-source.ts), its action
// space (core/action-space.ts) and, optionally, its oracle (core/oracle.ts): six members in all.
//
// `terminated` means the env reached an end (success or failure). Truncation (the turn budget) is applied
// from outside by the rollout engine, never by the env. `step` never throws on model text: malformed,
// empty, huge or hostile text costs the turn and comes back as an observation with `info.invalid = true`.
// `step` may mutate and return the state it was given; callers must not reuse a state after stepping it.
import type { ActionSpace } from "./action-space.js";
import type { Json } from "./json.js";
import type { Message, ToolSpec } from "./message.js";
import type { Oracle } from "./oracle.js";
import type { TaskSource } from "./task-source.js";

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

/** Which env this is: its registry name and the resolved configuration it was built with (stored with every run). */
export interface EnvSpec {
  /** Registry name, e.g. "sokoban". */
  readonly name: string;
  readonly config: Json;
}

export interface Env<TTask = unknown, TState = unknown> {
  readonly spec: EnvSpec;
  /** Where tasks come from and what is known about them (ids, forms, counts, reference budgets). */
  readonly tasks: TaskSource<TTask>;
  /** The actions each state offers, how replies read as them, and state keys. */
  readonly actions: ActionSpace<TState>;
  /** Optimal play from any state, for envs that know it (every env of budgetrl does); see requireOracle. */
  readonly oracle?: Oracle<TState>;
  reset(task: TTask, options: { readonly seed: number }): ResetResult<TState>;
  step(state: TState, action: Message): StepResult<TState>;
}

/** An env of any task and state type, as the registry and the rollout engine hold it. */
export type AnyEnv = Env<unknown, unknown>;

/** An env and the config it was built with, for messages: "hanoi disks=3 randomStart=true referenceFactor=4". */
export function envLabel(env: AnyEnv): string {
  const { name, config: given } = env.spec;
  const config = given !== null && typeof given === "object" && !Array.isArray(given) ? given : {};
  const options = Object.entries(config).filter(([, value]) => value !== null && value !== undefined);
  return [
    name,
    ...options.map(([option, value]) => `${option}=${typeof value === "string" ? value : JSON.stringify(value)}`),
  ].join(" ");
}

/** The env's oracle, for callers that cannot work without one (oracle policies, annotations, demonstrations). */
export function requireOracle<TState>(env: Env<unknown, TState>): Oracle<TState> {
  if (env.oracle === undefined) throw new Error(`env ${env.spec.name} has no oracle: this needs one (Env.oracle)`);
  return env.oracle;
}
