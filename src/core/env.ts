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
//
// A remote env (RemoteEnv: an env served by another process, `openenv:URL`) has the same members, but its reset and
// step answer asynchronously, it is opened before use (`open`: the server's schema, a clear error when the URL serves
// no env) and each episode's state holds a session that `release` frees, however the episode ended. Its reset and
// step throw only for faults of the server (lost connection, timeout, refusal): the rollout engine ends that episode
// as an error, which a resumed run plays again. The rollout engine plays both kinds on its one path (AnyEnv).
import type { ActionSpace } from "./action-space.js";
import { ConfigError } from "./errors.js";
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

/** An env served by another process: Env's members, with reset and step asynchronous (see the top of this file). */
export interface RemoteEnv<TTask = unknown, TState = unknown> extends Omit<Env<TTask, TState>, "reset" | "step"> {
  readonly remote: true;
  /** Reach the server and read what the env needs of it (schemas, tools); throws DataError when it serves no env. */
  open(): Promise<void>;
  reset(task: TTask, options: { readonly seed: number }): Promise<ResetResult<TState>>;
  step(state: TState, action: Message): Promise<StepResult<TState>>;
  /** Free what an episode's state holds on the server (its session); never throws. */
  release(state: TState): Promise<void>;
  /** Close every connection the env still holds. */
  close(): Promise<void>;
}

/** An env of any task and state type that runs in this process, as the registry makes them (all but openenv). */
export type AnyEnv = Env<unknown, unknown>;

/** An env of any task and state type, as the rollout engine, evaluations and training hold it: in this process or
 * remote. */
export type PlayableEnv = AnyEnv | RemoteEnv<unknown, unknown>;

/** True for an env served by another process. */
export function isRemoteEnv<TTask, TState>(
  env: Env<TTask, TState> | RemoteEnv<TTask, TState>,
): env is RemoteEnv<TTask, TState> {
  return "remote" in env && env.remote === true;
}

/** The env as an in-process one, for callers that step it without waiting (demonstrations, SFT targets). */
export function requireLocalEnv(env: PlayableEnv, what: string): AnyEnv {
  if (isRemoteEnv(env))
    throw new ConfigError(
      "env",
      `env ${env.spec.name} is played over the network: ${what} needs an env that runs in this process`,
    );
  return env;
}

/** An env and the config it was built with, for messages: "hanoi disks=3 randomStart=true referenceFactor=4". */
export function envLabel(env: Pick<AnyEnv, "spec">): string {
  const { name, config: given } = env.spec;
  const config = given !== null && typeof given === "object" && !Array.isArray(given) ? given : {};
  const options = Object.entries(config).filter(([, value]) => value !== null && value !== undefined);
  return [
    name,
    ...options.map(([option, value]) => `${option}=${typeof value === "string" ? value : JSON.stringify(value)}`),
  ].join(" ");
}

/** The env's oracle, for callers that cannot work without one (oracle policies, annotations, demonstrations). */
export function requireOracle<TState>(env: Pick<Env<unknown, TState>, "oracle" | "spec">): Oracle<TState> {
  if (env.oracle === undefined) throw new Error(`env ${env.spec.name} has no oracle: this needs one (Env.oracle)`);
  return env.oracle;
}
