// The policy contract: a policy sees the conversation so far (system prompt, observations with the budget
// text the rollout engine added, its own previous answers) and returns one assistant message. Language
// models, scripted agents and user functions all fit it. Scripted policies may also look at the env through
// `privileged` (oracle and valid actions); a language-model policy must not.
import type { OracleAnswer } from "./env.js";
import type { Message, ToolSpec } from "./message.js";
import type { Rng } from "./rng.js";

export interface PrivilegedView {
  oracle(): OracleAnswer;
  validActions(): readonly string[];
  /** The message that plays a canonical action text (tool calls for envs with tools). */
  toMessage(action: string): Message;
}

export interface PolicyContext {
  /** Seed of this episode: derived from (run seed, task, budget, sample). */
  readonly seed: number;
  /** Sample index within the (task, budget) group, 0-based. */
  readonly sample: number;
  /** The turn about to be taken, 1-based. */
  readonly turn: number;
  /** A random stream owned by this episode's policy calls (seeded from `seed`). */
  readonly rng: Rng;
  /** Functions the policy may call (envs with tools). */
  readonly tools: readonly ToolSpec[];
  /** Identity of the task, for policies that replay per-task scripts. */
  readonly taskId: string;
  /** Env access for scripted policies only. */
  readonly privileged: PrivilegedView;
  readonly signal?: AbortSignal;
  /** The same object on every turn of one episode, another one in every other episode: a key for per-episode state. */
  readonly episode?: object;
}

export interface Act {
  readonly message: Message;
  /** Sampled token ids and their log-probs under the behaviour policy (RL needs them). */
  readonly tokens?: readonly number[];
  readonly logprobs?: readonly number[];
}

export interface Policy {
  readonly name: string;
  act(conversation: readonly Message[], context: PolicyContext): Promise<Act>;
  /** Called once when an episode ends, however it ends, with its `context.episode`: free per-episode state. */
  endEpisode?(episode: object): void;
}

/** Any async function from conversation to reply, as a policy: how users evaluate their own agents. */
export type AgentFunction = (conversation: readonly Message[], context: PolicyContext) => Promise<string | Message> | string | Message;

export function policyFromFunction(name: string, agent: AgentFunction): Policy {
  return {
    name,
    async act(conversation, context) {
      const reply = await agent(conversation, context);
      return { message: typeof reply === "string" ? { role: "assistant", content: reply } : { ...reply, role: "assistant" } };
    },
  };
}
