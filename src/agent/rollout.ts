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
// A remote env (core/env.ts RemoteEnv: `openenv:URL`) is played on the same path, its reset and step awaited; a fault
// of its server (a lost connection, a timeout, a refusal) ends the episode with stopReason "error" (resume plays it
// again), and the session its state holds is released however the episode ends.
// The engine knows the turns left (the clock's: budget.turns minus the turns used, per scope) and hands them to the oracle:
// privileged policies ask `privileged.oracle()` for the optimal actions within the turns left (even when the
// budget is hidden from the agent), annotations record the oracle's view within the turns left (optimal?,
// remaining and value before the turn), and envs with budget-aware progress (`oracle.progressWithin`) get their
// progress recorded within the turns left after each step (and at reset, within the whole budget).
import type { Budget } from "../core/budget.js";
import { isRemoteEnv, requireOracle, type ResetResult, type StepResult, type StopReason } from "../core/env.js";
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
import { createRng, deriveSeed, type Rng } from "../core/rng.js";
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
import { RemoteEnvFault, resetEnv, resetFailed, stepEnv, type RolloutEnv } from "./env-calls.js";

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
  /** Told of every turn as it is recorded, with the progress before it and the env's answer to it (`budgetrl
   * env-server` answers its clients from them). */
  readonly onTurn?: (turn: Turn, step: TurnStep) => void;
}

/** What onTurn is told beside the turn: the progress before it, and the env's answer (without the budget sentence). */
export interface TurnStep {
  readonly progressBefore: number;
  readonly observation: readonly Message[];
}

/** Calls of episodes run without signal or timeout: only the reply check and the yields to the event loop. */
const unguarded = createPolicyCaller();

/** Add the budget note to the messages the policy is about to see. */
export function withBudgetNote(messages: readonly Message[], note: string | null): readonly Message[] {
  if (note === null || messages.length === 0) return note === null ? messages : [{ role: "user", content: note }];
  const last = messages[messages.length - 1]!;
  if (last.role === "tool" || last.role === "system") return [...messages, { role: "user", content: note }];
  return [...messages.slice(0, -1), { ...last, content: last.content === "" ? note : `${last.content}\n${note}` }];
}

function splitPreamble(messages: readonly Message[]): { preamble: Message[]; rest: Message[] } {
  let cut = 0;
  while (cut < messages.length && messages[cut]!.role === "system") cut++;
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
  /** The progress recorded last (at reset, the initial progress). */
  progress: number;
}

/** The progress to record for a state: budget-aware when the env can give it, else the env's own. */
function progressOf<TState>(env: RolloutEnv<unknown, TState>, state: TState, turnsLeft: number, own: number): number {
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
  env: RolloutEnv<unknown, TState>,
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
/** What a turn is recorded from. */
interface TurnParts {
  readonly turn: number;
  /** The messages the policy saw first at this turn. */
  readonly pending: readonly Message[];
  readonly act: Act & { readonly forced?: ForcedAction };
  readonly result: StepResult<unknown>;
  readonly progress: number;
  /** The state's key before the step. */
  readonly stateKey: string;
  readonly truncated: boolean;
  /** The oracle's view before the turn (annotated episodes). */
  readonly before: OracleAnswer | undefined;
  readonly keepTokens: boolean;
}

function turnRecord({
  turn,
  pending,
  act,
  result,
  progress,
  stateKey,
  truncated,
  before,
  keepTokens,
}: TurnParts): Turn {
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
  env: RolloutEnv<TTask, TState>,
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
    return await playEpisode({ env, policy, spec, options, caller, episode });
  } finally {
    if (owned) caller.dispose();
    policy.endEpisode?.(episode);
  }
}

/** What the turns of one episode share: the players, where it stands, what was said and played. */
interface EpisodePlay<TTask, TState> {
  readonly env: RolloutEnv<TTask, TState>;
  readonly policy: Policy;
  readonly spec: EpisodeSpec<TTask>;
  readonly options: RolloutOptions;
  readonly caller: PolicyCaller;
  /** The episode's identity for the policy (context.episode). */
  readonly episode: object;
  readonly now: Progress<TState>;
  readonly conversation: Message[];
  readonly turns: Turn[];
  readonly rng: Rng;
  readonly interventionRng: Rng;
  readonly privileged: PrivilegedView;
}

/** The turn that ended the episode: why, the limit that ended it (a budget's scope, "env"), the policy's error. */
interface EndedTurn {
  readonly ended: true;
  readonly stopReason: StopReason;
  readonly stopLimit: string | null;
  readonly error?: string;
}

/** What one turn ended with: the episode's end, or the env's next observation. */
type TurnOutcome = EndedTurn | { readonly ended: false; readonly observation: readonly Message[] };

/** What the policy is told of the oracle: within the turns left (or unbounded), the moves, how an action is said. */
function privilegedView<TState>(env: RolloutEnv<unknown, TState>, now: Progress<TState>): PrivilegedView {
  return {
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
}

function policyContext<TTask, TState>(play: EpisodePlay<TTask, TState>, turn: number): PolicyContext {
  const { spec, options } = play;
  return {
    seed: spec.seed,
    sample: spec.sample,
    turn,
    rng: play.rng,
    tools: play.now.tools,
    taskId: spec.taskId,
    privileged: play.privileged,
    episode: play.episode,
    ...(spec.group === undefined ? {} : { group: spec.group }),
    ...(options.signal === undefined ? {} : { signal: options.signal }),
  };
}

/** Plays the policy's act (or the intervention's action in its place) in the env, and records the turn. */
async function stepTurn<TTask, TState>(
  play: EpisodePlay<TTask, TState>,
  turn: number,
  pending: readonly Message[],
  act: Act,
  before: OracleAnswer | undefined,
): Promise<TurnOutcome> {
  const { env, now, options } = play;
  const intervention = options.intervention ?? { kind: "none" };
  const stateKey = now.stateKey;
  const played =
    intervention.kind === "none"
      ? { message: act.message }
      : playedAction(
          intervention,
          turn,
          act.message,
          interventionView(env, now.state, turnsLeft(now.clock), play.privileged),
          play.interventionRng,
        );
  const result = await stepEnv(env, now.state, played.message);
  now.state = result.state;
  now.stateKey = result.info.stateKey;
  if (result.tools !== undefined) now.tools = result.tools;
  now.total += result.reward;
  now.clock = advanceTurnClock(now.clock, result.info.segment);
  const ending = stopAfterStep(result, now.clock);
  const progress = progressOf(env, now.state, turnsLeft(now.clock), result.info.progress);
  const record = turnRecord({
    turn,
    pending,
    act: played.forced === undefined ? act : played,
    result,
    progress,
    stateKey,
    truncated: ending.truncated,
    before,
    keepTokens: options.keepTokens === true,
  });
  play.turns.push(record);
  options.onTurn?.(record, { progressBefore: now.progress, observation: result.observation });
  now.progress = progress;
  play.conversation.push(played.message);
  if (ending.stopReason !== undefined)
    return { ended: true, stopReason: ending.stopReason, stopLimit: ending.stopLimit };
  return { ended: false, observation: result.observation };
}

/** One turn: the policy's act (a policy error ends the episode), then the step. */
async function playTurn<TTask, TState>(
  play: EpisodePlay<TTask, TState>,
  pending: readonly Message[],
): Promise<TurnOutcome> {
  const { env, now, policy } = play;
  const turn = play.turns.length + 1;
  const context = policyContext(play, turn);
  const before: OracleAnswer | undefined =
    (play.options.annotate ?? true) && env.oracle !== undefined
      ? env.oracle.answer(now.state, turnsLeft(now.clock))
      : undefined;
  let act: Act;
  try {
    act = checkedAct(policy, await play.caller.call(policy, play.conversation, context));
  } catch (caught) {
    if (caught instanceof StoppedError) throw caught;
    return {
      ended: true,
      stopReason: caught instanceof ContextLengthError ? "context_length" : "error",
      stopLimit: null,
      error: caught instanceof Error ? caught.message : String(caught),
    };
  }
  try {
    return await stepTurn(play, turn, pending, act, before);
  } catch (caught) {
    if (!(caught instanceof RemoteEnvFault)) throw caught;
    return { ended: true, stopReason: "error", stopLimit: null, error: `env: ${caught.message}` };
  }
}

/** Turn after turn until the episode ends; between two, the env's observation (with the budget note) is said. */
async function playTurns<TTask, TState>(
  play: EpisodePlay<TTask, TState>,
  first: readonly Message[],
): Promise<EndedTurn> {
  let pending = first;
  for (;;) {
    if (play.options.signal?.aborted === true) throw new StoppedError("rollout stopped");
    const outcome = await playTurn(play, pending);
    if (outcome.ended) return outcome;
    pending = withBudgetNote(outcome.observation, budgetNote(play.spec.budget, turnInScope(play.now.clock)));
    for (const message of pending) play.conversation.push(message);
  }
}

/** Who plays an episode, and how: what its turns share before the env's first observation. */
type EpisodeStart<TTask, TState> = Pick<
  EpisodePlay<TTask, TState>,
  "env" | "policy" | "spec" | "options" | "caller" | "episode"
>;

async function playEpisode<TTask, TState>(run: EpisodeStart<TTask, TState>): Promise<Episode> {
  const { env, spec } = run;
  let start: ResetResult<TState>;
  try {
    start = await resetEnv(env, spec.task, spec.seed);
  } catch (caught) {
    if (!(caught instanceof RemoteEnvFault)) throw caught;
    return resetFailed(env.spec.name, spec, caught.message);
  }
  try {
    return await playFrom(run, start);
  } finally {
    if (isRemoteEnv(env)) await env.release(start.state);
  }
}

/** The episode from the env's first observation on. */
async function playFrom<TTask, TState>(run: EpisodeStart<TTask, TState>, start: ResetResult<TState>): Promise<Episode> {
  const { env, spec } = run;
  const { budget } = spec;
  const clock = startTurnClock(budget, start.info.segment);
  // Before any step: `step` may mutate the state it is given.
  const initialProgress = progressOf(env, start.state, turnsLeft(clock), start.info.progress);
  const now: Progress<TState> = {
    state: start.state,
    stateKey: start.info.stateKey,
    tools: start.tools ?? [],
    clock,
    total: 0,
    progress: initialProgress,
  };
  const { preamble, rest } = splitPreamble(start.observation);
  const pending = withBudgetNote(rest, budgetNote(budget, turnInScope(now.clock)));
  const play: EpisodePlay<TTask, TState> = {
    ...run,
    now,
    conversation: [...preamble, ...pending],
    turns: [],
    rng: createRng(deriveSeed(spec.seed, "policy")),
    interventionRng: createRng(deriveSeed(spec.seed, "intervention")),
    privileged: privilegedView(env, now),
  };
  const stop = await playTurns(play, pending);
  const { turns } = play;
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
    stopReason: stop.stopReason,
    stopLimit: stop.stopLimit,
    turnsUsed: turns.length,
    successTurn: stop.stopReason === "success" ? turns.length : null,
    return: now.total,
    initialProgress,
    ...(stop.error === undefined ? {} : { error: stop.error }),
  };
}
