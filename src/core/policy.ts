// The policy contract: a policy sees the conversation so far (system prompt, observations with the budget
// text the rollout engine added, its own previous answers) and returns one assistant message. Language
// models, scripted agents and user functions all fit it. Scripted policies may also look at the env through
// `privileged` (oracle and valid actions); a language-model policy must not. The privileged oracle knows the
// turns left in the budget even when the budget is hidden from the agent.
import { describeValue } from "./describe-value.js";
import type { OracleAnswer } from "./oracle.js";
import { BudgetrlError } from "./errors.js";
import type { Message, ToolSpec } from "./message.js";
import type { Rng } from "./rng.js";

/** Which horizon a privileged oracle query is for: the turns left in the budget (per the budget's scope), or
 * an unlimited horizon. */
export type OracleHorizon = "turns-left" | "unbounded";

export interface PrivilegedView {
  /** The env oracle's answer for the current state: by default within the turns left in the budget. */
  oracle(horizon?: OracleHorizon): OracleAnswer;
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
  /** The group of this episode, when it was started with others on the same task and budget (an RL group):
   * `size` episodes whose first turns see the same conversation, and the group's own seed. A policy may sample
   * those first turns in one request (sample `sample` of `size`). */
  readonly group?: EpisodeGroup;
}

export interface EpisodeGroup {
  readonly seed: number;
  readonly size: number;
}

export interface Act {
  readonly message: Message;
  /** Sampled token ids and their log-probs under the behaviour policy (RL needs them). */
  readonly tokens?: readonly number[];
  readonly logprobs?: readonly number[];
  /** How the reply was sampled (temperature, prompt token ids, ...), for policies that know. */
  readonly sampling?: SamplingRecord;
}

/** How one reply was sampled, kept with the turn for RL: log-probs mean little without the temperature (vLLM
 * reports raw log-probs, before temperature, by default). JSON-only so that the store keeps it as it is. */
export interface SamplingRecord {
  readonly temperature: number;
  readonly topP?: number;
  /** Token texts as the server reported them, aligned with the log-probs (servers that give no ids). */
  readonly tokenTexts?: readonly string[];
  /** The prompt as token ids, where the server returns them (vLLM, SGLang). */
  readonly promptTokens?: readonly number[];
  /** Why the server stopped: stop, length, tool_calls, ... */
  readonly finishReason?: string;
  /** The model that answered, as the server names it. */
  readonly model?: string;
}

/** Thrown by a policy whose prompt no longer fits the model's context: the rollout engine ends the episode with
 * stopReason "context_length" (a failure of the agent, not an error; it is not retried on resume). */
export class ContextLengthError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ContextLengthError";
  }
}

export interface Policy {
  readonly name: string;
  /** The policy plays by the turns left even when the budget is hidden from the conversation (budget-aware
   * privileged policies such as the oracle): one run at the largest budget then says nothing about smaller ones. */
  readonly knowsBudget?: boolean;
  act(conversation: readonly Message[], context: PolicyContext): Promise<Act>;
  /** Release what the policy holds (files, connections); whoever created the policy calls it once, at the end. */
  close?(): void | Promise<void>;
  /** Called once when an episode ends, however it ends, with its `context.episode`: free per-episode state. */
  endEpisode?(episode: object): void;
}

/** Any async function from conversation to reply, as a policy: how users evaluate their own agents. */
export type AgentFunction = (
  conversation: readonly Message[],
  context: PolicyContext,
) => Promise<string | Message> | string | Message;

/** A policy answered with something that is not a string or a message with string content: a policy error
 * (the episode ends with stopReason "error", naming what came back), never a silently invalid turn. */
export class PolicyReplyError extends BudgetrlError {
  constructor(policy: string, what: string) {
    super("policy:reply", `policy ${policy} returned ${what}, not a string or a message with string content`);
    this.name = "PolicyReplyError";
  }
}

/** What is wrong with an agent function's reply (a string or a message with string content), or undefined. */
export function agentReplyProblem(reply: unknown): string | undefined {
  if (typeof reply === "string") return undefined;
  if (reply === null || typeof reply !== "object" || Array.isArray(reply)) return describeValue(reply);
  const content = (reply as { content?: unknown }).content;
  return typeof content === "string" ? undefined : `a message whose content is ${describeValue(content)}`;
}

export function policyFromFunction(name: string, agent: AgentFunction): Policy {
  return {
    name,
    async act(conversation, context) {
      const reply: unknown = await agent(conversation, context);
      const problem = agentReplyProblem(reply);
      if (problem !== undefined) throw new PolicyReplyError(name, problem);
      return {
        message:
          typeof reply === "string"
            ? { role: "assistant", content: reply }
            : { ...(reply as Message), role: "assistant" },
      };
    },
  };
}
