// What a rollout records: every turn (what the policy saw, what it said, what the env made of it) and the
// episode summary. An episode's identity is (run, task, budget label, sample): writes are idempotent on it.
import type { Budget } from "./budget.js";
import type { StopReason } from "./env.js";
import type { Json } from "./json.js";
import type { Message } from "./message.js";
import type { SamplingRecord } from "./policy.js";

/** What an intervention played in the policy's place at a turn (teacher-forced or perturbation runs), and how
 * the policy's own reply, asked for and set aside, compares with the oracle's optimal set. */
export interface ForcedAction {
  readonly by: "expert" | "perturbation";
  readonly policyAction: Message;
  /** The reply's canonical action, null when it did not parse. */
  readonly policyParsed: string | null;
  /** Whether it was in the optimal set within the turns left. */
  readonly policyOptimal: boolean;
}

export interface Turn {
  /** 1-based turn index within the episode. */
  readonly index: number;
  /** User turn (segment) this turn belongs to: 0 for single-segment envs. */
  readonly segment: number;
  /** Messages the policy saw for the first time at this turn (observation plus budget text). */
  readonly observation: readonly Message[];
  /** The policy's raw reply. */
  readonly action: Message;
  /** Canonical parsed action, or null when the reply did not parse. */
  readonly parsedAction: string | null;
  readonly invalid: boolean;
  readonly reward: number;
  readonly terminated: boolean;
  readonly truncated: boolean;
  /** Env progress after the step (turn-level rewards use differences): env.oracle.progressWithin(state, turns left
   * after the step) for envs whose progress depends on the budget (frozenlake), else info.progress. */
  readonly progress: number;
  /** Key of the state in which the action was chosen. */
  readonly stateKey: string;
  /** Oracle annotations of that state, when recorded, all within the turns left before the action: was the
   * parsed action optimal (maximising success within the turns left, fewest expected turns among ties), how
   * many turns success was away, and the success probability under optimal play (when the env gives one). */
  readonly optimal?: boolean;
  readonly remainingBefore?: number;
  readonly valueBefore?: number;
  readonly details?: Json;
  /** Set when the action played was not the policy's reply (`action` is what was played). */
  readonly forced?: ForcedAction;
  /** Behaviour-policy tokens and log-probs, and how they were sampled (stored in turn_tokens, exported). */
  readonly tokens?: readonly number[];
  readonly logprobs?: readonly number[];
  readonly sampling?: SamplingRecord;
}

export interface Episode {
  readonly run: string;
  readonly env: string;
  readonly taskId: string;
  /** Position of the task in the run's task list. */
  readonly taskIndex: number;
  readonly budget: Budget;
  readonly sample: number;
  readonly seed: number;
  /** Messages before the first action that are not part of any turn (the system prompt). */
  readonly preamble: readonly Message[];
  readonly turns: readonly Turn[];
  readonly success: boolean;
  readonly stopReason: StopReason;
  /** Which limit ended the episode when stopReason is max_turns or force_terminated ("episode", "user-turn", ...). */
  readonly stopLimit: string | null;
  readonly turnsUsed: number;
  /** Turn at which success was reached (null if never): protocol (b) reads success within T from it. */
  readonly successTurn: number | null;
  /** Sum of rewards. */
  readonly return: number;
  /** Env progress at reset (turn-level rewards are progress differences, starting from this); within the whole
   * budget for envs with budget-aware progress. */
  readonly initialProgress: number;
  /** Error text when stopReason is "error" (or the server's message for "context_length"). */
  readonly error?: string;
}
