// The rollout loop: one episode of a policy on a task under a turn budget.
//
//   reset -> [budget note] -> policy.act -> env.step -> record turn -> stop? -> [budget note] -> ...
//
// The budget is applied here, from outside the env, by the turn clock (core/turn-clock.ts): with scope "episode" the
// episode is truncated after budget.turns turns; with scope "user-turn" the count restarts whenever the env's segment
// (user turn) changes and the episode is truncated when one segment uses up its turns. Truncation gives stopReason
// "max_turns" and stopLimit = the scope. The env's own ends (success, failure, force_terminated) are terminations.
// A policy that throws, answers something that is not a message, or does not answer within the turn timeout ends
// the episode with stopReason "error" (the store keeps it; metrics skip it; resume runs it again), except a
// ContextLengthError: the conversation outgrew the model, stopReason "context_length", counted as a failure of the
// agent. Policy calls go through a PolicyCaller (policy-call.ts). A stop signal abandons the episode
// (StoppedError): nothing is recorded. Model text never throws: envs turn it into observations.
// The engine knows the turns left (the clock's: budget.turns minus the turns used, per scope) and hands them to the oracle:
// privileged policies ask `privileged.oracle()` for the optimal actions within the turns left (even when the
// budget is hidden from the agent), annotations record the oracle's view within the turns left (optimal?,
// remaining and value before the turn), and envs with budget-aware progress (`oracle.progressWithin`) get their
// progress recorded within the turns left after each step (and at reset, within the whole budget).
import type { Budget } from "../core/budget.js";
import { requireOracle, type Env, type StepResult, type StopReason } from "../core/env.js";
import type { OracleAnswer } from "../core/oracle.js";
import type { Episode, ForcedAction, Turn } from "../core/episode.js";
import type { Message, ToolSpec } from "../core/message.js";
import {
  ContextLengthError,
  type Act,
  type EpisodeGroup,
  type Policy,
  type PolicyContext,
  type PrivilegedView,
} from "../core/policy.js";
import { StoppedError } from "../core/errors.js";
import { createRng, deriveSeed } from "../core/rng.js";
import {
  advanceTurnClock,
  budgetSpent,
  startTurnClock,
  turnInScope,
  turnsLeft,
  type TurnClock,
} from "../core/turn-clock.js";
import { budgetNote } from "./budget-text.js";
import { checkedAct, createPolicyCaller, type PolicyCaller } from "./policy-call.js";
import { playedAction, type Intervention, type InterventionView } from "./interventions.js";

export interface EpisodeSpec<TTask> {
  readonly run: string;
  readonly task: TTask;
  readonly taskId: string;
  readonly taskIndex: number;
  readonly budget: Budget;
  readonly sample: number;
  /** Seed of this episode: the env is reset with it, the policy's stream is derived from it. */
  readonly seed: number;
  /** The group the episode was started in (RL groups), handed to the policy. */
  readonly group?: EpisodeGroup;
}

export interface RolloutOptions {
  /** Record the oracle's view of each state within the turns left (optimal?, remaining and value before):
   * needed by step-quality analyses. Envs without an oracle record none. */
  readonly annotate?: boolean;
  /** Keep behaviour tokens and log-probs on turns (RL needs them; the store drops them). */
  readonly keepTokens?: boolean;
  /** Play some actions in the policy's place (teacher-forced or perturbation runs; default none). */
  readonly intervention?: Intervention;
  readonly signal?: AbortSignal;
  /** Seconds a policy call may take before the episode ends in a policy error (default: no limit). */
  readonly turnTimeout?: number;
  /** The guarded policy calls to use (shared by the episodes of a run; `signal` and `turnTimeout` are then its own). */
  readonly caller?: PolicyCaller;
}

/** Calls of episodes run without signal or timeout: only the reply check and the yields to the event loop. */
const unguarded = createPolicyCaller();

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

/** Where a rollout stands between turns: the env state and the budget's clock. */
interface Progress<TState> {
  state: TState;
  stateKey: string;
  tools: readonly ToolSpec[];
  /** The turns used and left, in the budget's scope. */
  clock: TurnClock;
  total: number;
}

/** The progress to record for a state: budget-aware when the env can give it, else the env's own. */
function progressOf<TState>(env: Env<unknown, TState>, state: TState, turnsLeft: number, own: number): number {
  const within = env.oracle?.progressWithin;
  return within === undefined ? own : within(state, turnsLeft);
}

/** How a step ends the episode: the env's own end (terminated) or the budget (truncated), or not at all. */
function stopAfterStep(
  result: StepResult<unknown>,
  clock: TurnClock,
): { stopReason?: StopReason; stopLimit: string | null; truncated: boolean } {
  if (result.terminated) {
    const stopReason = result.info.stopReason ?? "failure";
    return { stopReason, stopLimit: stopReason === "force_terminated" ? "env" : null, truncated: false };
  }
  if (budgetSpent(clock)) return { stopReason: "max_turns", stopLimit: clock.scope, truncated: true };
  return { stopLimit: null, truncated: false };
}

/** What an intervention sees of the current state: the oracle within the turns left, the moves, the parser. */
function interventionView<TState>(
  env: Env<unknown, TState>,
  state: TState,
  turnsLeft: number,
  privileged: PrivilegedView,
): InterventionView {
  const parse = env.actions.parse;
  if (parse === undefined)
    throw new Error(
      `env ${env.spec.name} cannot parse a reply without playing it (no actions.parse): interventions need it`,
    );
  return {
    optimal: () => requireOracle(env).answer(state, turnsLeft).optimal,
    validActions: () => env.actions.valid(state),
    toMessage: privileged.toMessage,
    parse: (reply) => parse(state, reply),
  };
}

/** The recorded turn: what the policy saw and said (or what was played in its place, with the reply in `forced`),
 * what the env made of it, and the oracle's view before it. */
function turnRecord(
  turn: number,
  pending: readonly Message[],
  act: Act & { readonly forced?: ForcedAction },
  result: StepResult<unknown>,
  progress: number,
  stateKey: string,
  truncated: boolean,
  before: OracleAnswer | undefined,
  keepTokens: boolean,
): Turn {
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
    progress,
    stateKey,
    ...(before === undefined
      ? {}
      : { optimal: parsed !== null && before.optimal.includes(parsed), remainingBefore: before.remaining }),
    ...(before?.value === undefined ? {} : { valueBefore: before.value }),
    ...(result.info.details === undefined ? {} : { details: result.info.details }),
    ...(act.forced === undefined ? {} : { forced: act.forced }),
    ...(keepTokens ? tokenFields(act) : {}),
  };
}

/** What a turn keeps of the policy's token data: ids, log-probs (also without ids) and the sampling record. */
function tokenFields(act: Act): Pick<Turn, "tokens" | "logprobs" | "sampling"> {
  return {
    ...(act.tokens === undefined ? {} : { tokens: act.tokens, logprobs: act.logprobs ?? [] }),
    ...(act.tokens === undefined && act.logprobs !== undefined ? { logprobs: act.logprobs } : {}),
    ...(act.sampling === undefined ? {} : { sampling: act.sampling }),
  };
}

export async function runEpisode<TTask, TState>(
  env: Env<TTask, TState>,
  policy: Policy,
  spec: EpisodeSpec<TTask>,
  options: RolloutOptions = {},
): Promise<Episode> {
  const episode = {}; // this episode's identity for the policy (context.episode), released when it ends
  const owned = options.caller === undefined && (options.signal !== undefined || options.turnTimeout !== undefined);
  const caller =
    options.caller ??
    (owned
      ? createPolicyCaller({
          ...(options.signal === undefined ? {} : { signal: options.signal }),
          ...(options.turnTimeout === undefined ? {} : { turnTimeout: options.turnTimeout }),
        })
      : unguarded);
  try {
    return await playEpisode(env, policy, spec, options, caller, episode);
  } finally {
    if (owned) caller.dispose();
    policy.endEpisode?.(episode);
  }
}

async function playEpisode<TTask, TState>(
  env: Env<TTask, TState>,
  policy: Policy,
  spec: EpisodeSpec<TTask>,
  options: RolloutOptions,
  caller: PolicyCaller,
  episode: object,
): Promise<Episode> {
  const { budget } = spec;
  const annotate = options.annotate ?? true;
  const start = env.reset(spec.task, { seed: spec.seed });
  const clock = startTurnClock(budget, start.info.segment);
  // Before any step: `step` may mutate the state it is given.
  const initialProgress = progressOf(env, start.state, turnsLeft(clock), start.info.progress);
  const now: Progress<TState> = {
    state: start.state,
    stateKey: start.info.stateKey,
    tools: start.tools ?? [],
    clock,
    total: 0,
  };
  const { preamble, rest } = splitPreamble(start.observation);
  let pending = withBudgetNote(rest, budgetNote(budget, turnInScope(now.clock)));
  const conversation: Message[] = [...preamble, ...pending];
  const turns: Turn[] = [];
  const rng = createRng(deriveSeed(spec.seed, "policy"));
  const intervention = options.intervention ?? { kind: "none" };
  const interventionRng = createRng(deriveSeed(spec.seed, "intervention"));
  const privileged: PrivilegedView = {
    oracle: (horizon = "turns-left") =>
      horizon === "unbounded"
        ? requireOracle(env).answer(now.state)
        : requireOracle(env).answer(now.state, turnsLeft(now.clock)),
    validActions: () => env.actions.valid(now.state),
    toMessage: (action) =>
      env.actions.message === undefined
        ? { role: "assistant", content: action }
        : env.actions.message(now.state, action),
  };
  let stop: { stopReason?: StopReason; stopLimit: string | null } = { stopLimit: null };
  let successTurn: number | null = null;
  let error: string | undefined;

  while (stop.stopReason === undefined) {
    if (options.signal?.aborted === true) throw new StoppedError("rollout stopped");
    const turn = turns.length + 1;
    const context: PolicyContext = {
      seed: spec.seed,
      sample: spec.sample,
      turn,
      rng,
      tools: now.tools,
      taskId: spec.taskId,
      privileged,
      episode,
      ...(spec.group === undefined ? {} : { group: spec.group }),
      ...(options.signal === undefined ? {} : { signal: options.signal }),
    };
    const before: OracleAnswer | undefined =
      annotate && env.oracle !== undefined ? env.oracle.answer(now.state, turnsLeft(now.clock)) : undefined;
    let act: Act;
    try {
      act = checkedAct(policy, await caller.call(policy, conversation, context));
    } catch (caught) {
      if (caught instanceof StoppedError) throw caught;
      error = caught instanceof Error ? caught.message : String(caught);
      stop = { stopReason: caught instanceof ContextLengthError ? "context_length" : "error", stopLimit: null };
      break;
    }
    const stateKey = now.stateKey;
    const played =
      intervention.kind === "none"
        ? { message: act.message }
        : playedAction(
            intervention,
            turn,
            act.message,
            interventionView(env, now.state, turnsLeft(now.clock), privileged),
            interventionRng,
          );
    const result = env.step(now.state, played.message);
    now.state = result.state;
    now.stateKey = result.info.stateKey;
    if (result.tools !== undefined) now.tools = result.tools;
    now.total += result.reward;
    now.clock = advanceTurnClock(now.clock, result.info.segment);
    const ending = stopAfterStep(result, now.clock);
    stop = ending;
    if (ending.stopReason === "success") successTurn = turn;
    const progress = progressOf(env, now.state, turnsLeft(now.clock), result.info.progress);
    turns.push(
      turnRecord(
        turn,
        pending,
        played.forced === undefined ? act : played,
        result,
        progress,
        stateKey,
        ending.truncated,
        before,
        options.keepTokens === true,
      ),
    );
    conversation.push(played.message);
    if (stop.stopReason !== undefined) break;
    pending = withBudgetNote(result.observation, budgetNote(budget, turnInScope(now.clock)));
    for (const message of pending) conversation.push(message);
  }

  return {
    run: spec.run,
    env: env.spec.name,
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
    initialProgress,
    ...(error === undefined ? {} : { error }),
  };
}
