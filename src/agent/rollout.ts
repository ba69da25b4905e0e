// The rollout loop: one episode of a policy on a task under a turn budget.
//
//   reset -> [budget note] -> policy.act -> env.step -> record turn -> stop? -> [budget note] -> ...
//
// The budget is applied here, from outside the env: with scope "episode" the episode is truncated after
// budget.turns turns; with scope "user-turn" the count restarts whenever the env's segment (user turn) changes
// and the episode is truncated when one segment uses up its turns. Truncation gives stopReason "max_turns" and
// stopLimit = the scope. The env's own ends (success, failure, force_terminated) are terminations.
// A policy that throws ends the episode with stopReason "error" (the store keeps it; metrics skip it; resume
// runs it again). Model text never throws: envs turn it into observations.
import type { Budget } from "../core/budget.js";
import type { Env, OracleAnswer, StepResult, StopReason } from "../core/env.js";
import type { Episode, Turn } from "../core/episode.js";
import type { Message, ToolSpec } from "../core/message.js";
import type { Act, Policy, PolicyContext, PrivilegedView } from "../core/policy.js";
import { createRng, deriveSeed } from "../core/rng.js";
import { budgetNote } from "./budget-text.js";

export interface EpisodeSpec<TTask> {
  readonly run: string;
  readonly task: TTask;
  readonly taskId: string;
  readonly taskIndex: number;
  readonly budget: Budget;
  readonly sample: number;
  /** Seed of this episode: the env is reset with it, the policy's stream is derived from it. */
  readonly seed: number;
}

export interface RolloutOptions {
  /** Record the oracle's view of each state (optimal?, remaining before): needed by step-quality analyses. */
  readonly annotate?: boolean;
  /** Keep behaviour tokens and log-probs on turns (RL needs them; the store drops them). */
  readonly keepTokens?: boolean;
  readonly signal?: AbortSignal;
}

/** Add the budget note to the messages the policy is about to see. */
export function withBudgetNote(messages: readonly Message[], note: string | null): readonly Message[] {
  if (note === null || messages.length === 0) return note === null ? messages : [{ role: "user", content: note }];
  const last = messages[messages.length - 1] as Message;
  if (last.role === "tool" || last.role === "system") return [...messages, { role: "user", content: note }];
  return [...messages.slice(0, -1), { ...last, content: last.content === "" ? note : `${last.content}\n${note}` }];
}

function splitPreamble(messages: readonly Message[]): { preamble: Message[]; rest: Message[] } {
  let cut = 0;
  while (cut < messages.length && (messages[cut] as Message).role === "system") cut++;
  return { preamble: messages.slice(0, cut), rest: messages.slice(cut) };
}

/** Where a rollout stands between turns: the env state and the budget counters. */
interface Progress<TState> {
  state: TState;
  stateKey: string;
  tools: readonly ToolSpec[];
  /** Current user turn (segment) and the turns spent in it (a per-user-turn budget restarts at each). */
  segment: number;
  segmentTurns: number;
  total: number;
}

/** How a step ends the episode: the env's own end (terminated) or the budget (truncated), or not at all. */
function stopAfterStep(result: StepResult<unknown>, budget: Budget, turn: number, segmentTurns: number): { stopReason?: StopReason; stopLimit: string | null; truncated: boolean } {
  if (result.terminated) {
    const stopReason = result.info.stopReason ?? "failure";
    return { stopReason, stopLimit: stopReason === "force_terminated" ? "env" : null, truncated: false };
  }
  const used = budget.scope === "episode" ? turn : segmentTurns;
  if (used >= budget.turns) return { stopReason: "max_turns", stopLimit: budget.scope, truncated: true };
  return { stopLimit: null, truncated: false };
}

/** The recorded turn: what the policy saw and said, what the env made of it, and the oracle's view before it. */
function turnRecord(turn: number, pending: readonly Message[], act: Act, result: StepResult<unknown>, stateKey: string, truncated: boolean, before: OracleAnswer | undefined, keepTokens: boolean): Turn {
  const parsed = result.info.parsedAction;
  return {
    index: turn,
    segment: result.info.segment,
    observation: pending,
    action: act.message,
    parsedAction: parsed,
    invalid: result.info.invalid,
    reward: result.reward,
    terminated: result.terminated,
    truncated,
    progress: result.info.progress,
    stateKey,
    ...(before === undefined ? {} : { optimal: parsed !== null && before.optimal.includes(parsed), remainingBefore: before.remaining }),
    ...(result.info.details === undefined ? {} : { details: result.info.details }),
    ...(keepTokens && act.tokens !== undefined ? { tokens: act.tokens, logprobs: act.logprobs ?? [] } : {}),
  };
}

export async function runEpisode<TTask, TState>(env: Env<TTask, TState>, policy: Policy, spec: EpisodeSpec<TTask>, options: RolloutOptions = {}): Promise<Episode> {
  const episode = {}; // this episode's identity for the policy (context.episode), released when it ends
  try {
    return await playEpisode(env, policy, spec, options, episode);
  } finally {
    policy.endEpisode?.(episode);
  }
}

async function playEpisode<TTask, TState>(env: Env<TTask, TState>, policy: Policy, spec: EpisodeSpec<TTask>, options: RolloutOptions, episode: object): Promise<Episode> {
  const { budget } = spec;
  const annotate = options.annotate ?? true;
  const start = env.reset(spec.task, { seed: spec.seed });
  const now: Progress<TState> = { state: start.state, stateKey: start.info.stateKey, tools: start.tools ?? [], segment: start.info.segment, segmentTurns: 0, total: 0 };
  const { preamble, rest } = splitPreamble(start.observation);
  let pending = withBudgetNote(rest, budgetNote(budget, 1));
  const conversation: Message[] = [...preamble, ...pending];
  const turns: Turn[] = [];
  const rng = createRng(deriveSeed(spec.seed, "policy"));
  const privileged: PrivilegedView = {
    oracle: () => env.oracle(now.state),
    validActions: () => env.validActions(now.state),
    toMessage: (action) => (env.actionMessage === undefined ? { role: "assistant", content: action } : env.actionMessage(now.state, action)),
  };
  let stop: { stopReason?: StopReason; stopLimit: string | null } = { stopLimit: null };
  let successTurn: number | null = null;
  let error: string | undefined;

  while (stop.stopReason === undefined) {
    if (options.signal?.aborted === true) throw new Error("rollout aborted");
    const turn = turns.length + 1;
    const context: PolicyContext = { seed: spec.seed, sample: spec.sample, turn, rng, tools: now.tools, taskId: spec.taskId, privileged, episode, ...(options.signal === undefined ? {} : { signal: options.signal }) };
    const before: OracleAnswer | undefined = annotate ? env.oracle(now.state) : undefined;
    let act: Act;
    try {
      act = await policy.act(conversation, context);
    } catch (caught) {
      error = caught instanceof Error ? caught.message : String(caught);
      stop = { stopReason: "error", stopLimit: null };
      break;
    }
    const stateKey = now.stateKey;
    const result = env.step(now.state, act.message);
    now.state = result.state;
    now.stateKey = result.info.stateKey;
    if (result.tools !== undefined) now.tools = result.tools;
    now.total += result.reward;
    now.segmentTurns += 1;
    if (result.info.segment !== now.segment) {
      // A new user turn starts: a per-user-turn budget starts again from zero.
      now.segment = result.info.segment;
      now.segmentTurns = 0;
    }
    const ending = stopAfterStep(result, budget, turn, now.segmentTurns);
    stop = ending;
    if (ending.stopReason === "success") successTurn = turn;
    turns.push(turnRecord(turn, pending, act, result, stateKey, ending.truncated, before, options.keepTokens === true));
    conversation.push(act.message);
    if (stop.stopReason !== undefined) break;
    pending = withBudgetNote(result.observation, budgetNote(budget, (budget.scope === "episode" ? turn : now.segmentTurns) + 1));
    for (const message of pending) conversation.push(message);
  }

  return {
    run: spec.run,
    env: env.name,
    taskId: spec.taskId,
    taskIndex: spec.taskIndex,
    budget,
    sample: spec.sample,
    seed: spec.seed,
    preamble,
    turns,
    success: stop.stopReason === "success",
    stopReason: stop.stopReason ?? "error",
    stopLimit: stop.stopLimit,
    turnsUsed: turns.length,
    successTurn,
    return: now.total,
    initialProgress: start.info.progress,
    ...(error === undefined ? {} : { error }),
  };
}
