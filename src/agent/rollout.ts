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
import type { Env, OracleAnswer, StopReason } from "../core/env.js";
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

export async function runEpisode<TTask, TState>(env: Env<TTask, TState>, policy: Policy, spec: EpisodeSpec<TTask>, options: RolloutOptions = {}): Promise<Episode> {
  const { budget } = spec;
  const annotate = options.annotate ?? true;
  const start = env.reset(spec.task, { seed: spec.seed });
  let state = start.state;
  let info = start.info;
  let tools: readonly ToolSpec[] = start.tools ?? [];
  const { preamble, rest } = splitPreamble(start.observation);
  let pending = withBudgetNote(rest, budgetNote(budget, 1));
  const conversation: Message[] = [...preamble, ...pending];
  const turns: Turn[] = [];
  const rng = createRng(deriveSeed(spec.seed, "policy"));
  const privileged: PrivilegedView = {
    oracle: () => env.oracle(state),
    validActions: () => env.validActions(state),
    toMessage: (action) => (env.actionMessage === undefined ? { role: "assistant", content: action } : env.actionMessage(state, action)),
  };
  let segment = start.info.segment;
  let segmentTurns = 0;
  let total = 0;
  let stopReason: StopReason | undefined;
  let stopLimit: string | null = null;
  let successTurn: number | null = null;
  let error: string | undefined;

  while (stopReason === undefined) {
    if (options.signal?.aborted === true) throw new Error("rollout aborted");
    const turn = turns.length + 1;
    const context: PolicyContext = { seed: spec.seed, sample: spec.sample, turn, rng, tools, taskId: spec.taskId, privileged, ...(options.signal === undefined ? {} : { signal: options.signal }) };
    const before: OracleAnswer | undefined = annotate ? env.oracle(state) : undefined;
    let act: Act;
    try {
      act = await policy.act(conversation, context);
    } catch (caught) {
      error = caught instanceof Error ? caught.message : String(caught);
      stopReason = "error";
      break;
    }
    const stateKey = info.stateKey;
    const result = env.step(state, act.message);
    state = result.state;
    info = result.info;
    if (result.tools !== undefined) tools = result.tools;
    total += result.reward;
    segmentTurns += 1;
    if (result.info.segment !== segment) {
      // A new user turn starts: a per-user-turn budget starts again from zero.
      segment = result.info.segment;
      segmentTurns = 0;
    }
    let truncated = false;
    if (result.terminated) {
      stopReason = result.info.stopReason ?? "failure";
      if (stopReason === "success") successTurn = turn;
      if (stopReason === "force_terminated") stopLimit = "env";
    } else if (budget.scope === "episode" ? turn >= budget.turns : segmentTurns >= budget.turns) {
      truncated = true;
      stopReason = "max_turns";
      stopLimit = budget.scope;
    }
    const parsed = result.info.parsedAction;
    turns.push({
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
      ...(options.keepTokens === true && act.tokens !== undefined ? { tokens: act.tokens, logprobs: act.logprobs ?? [] } : {}),
    });
    conversation.push(act.message);
    if (stopReason !== undefined) break;
    pending = withBudgetNote(result.observation, budgetNote(budget, (budget.scope === "episode" ? turn : segmentTurns) + 1));
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
    success: stopReason === "success",
    stopReason: stopReason ?? "error",
    stopLimit,
    turnsUsed: turns.length,
    successTurn,
    return: total,
    initialProgress: start.info.progress,
    ...(error === undefined ? {} : { error }),
  };
}
