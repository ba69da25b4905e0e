// One episode played through `budgetrl env-server`, on the rollout engine's one path: the episode is runEpisode's,
// and its policy is the client. The policy's act() waits for the client's next step; each time the engine asks it for
// a turn, the client is answered with what the agent reads now (the env's observation with budgetrl's budget
// sentence, as in any evaluation), and when the episode ends (success, failure, the budget spent, the env's own
// limit), with the final observation and done. Budgets, truncation and the turn clock are the engine's.
//
//   start()        -> the first observation (reset)
//   step(message)  -> the next observation, or the last one with done: true
//   abandon()      -> the episode is dropped (the client left): nothing is recorded
import { runEpisode, type EpisodeSpec, type TurnStep } from "../../agent/rollout.js";
import type { Budget } from "../../core/budget.js";
import type { AnyEnv } from "../../core/env.js";
import type { Episode, Turn } from "../../core/episode.js";
import { StoppedError } from "../../core/errors.js";
import type { Message, ToolSpec } from "../../core/message.js";
import type { Act, Policy } from "../../core/policy.js";
import { advanceTurnClock, startTurnClock, turnInScope, turnsLeft, type TurnClock } from "../../core/turn-clock.js";

/** What one reset or step tells the client: the messages the agent reads, the reward, where the clock stands. */
export interface EpisodeMoment {
  readonly budget: Budget;
  /** The messages since the last reply: at reset the whole prompt, after a step the env's answer (budget sentence
   * included while the episode goes on). */
  readonly messages: readonly Message[];
  /** The turn about to be taken in the budget's scope (1-based), or the turns taken when done. */
  readonly turn: number;
  /** Turns left in the budget's scope. */
  readonly turnsLeft: number;
  readonly done: boolean;
  /** The turn just played (undefined at reset). */
  readonly played?: PlayedTurn;
  /** The functions the agent may call now (envs with tools). */
  readonly tools: readonly ToolSpec[];
  /** The actions the state offers, as canonical texts (empty once done). */
  readonly validActions: readonly string[];
  /** The whole episode, once it is over. */
  readonly episode?: Episode;
}

/** A played turn as the client is told of it. */
export interface PlayedTurn {
  readonly turn: Turn;
  /** The progress before the turn (the process reward is the change). */
  readonly progressBefore: number;
}

export interface EpisodeSession {
  readonly budget: Budget;
  start(): Promise<EpisodeMoment>;
  step(message: Message): Promise<EpisodeMoment>;
  /** True once the episode ended (a step then is refused). */
  readonly over: () => boolean;
  readonly turnsTaken: () => number;
  readonly tools: () => readonly ToolSpec[];
  abandon(): void;
}

interface Deferred<T> {
  readonly promise: Promise<T>;
  resolve(value: T): void;
  reject(error: unknown): void;
}

function deferred<T>(): Deferred<T> {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((yes, no) => {
    resolve = yes;
    reject = no;
  });
  return { promise, resolve, reject };
}

/** What the engine did last: asked for the next act (with what the agent reads), or ended the episode. */
type Turning =
  | {
      readonly kind: "act";
      readonly messages: readonly Message[];
      readonly tools: readonly ToolSpec[];
      readonly validActions: readonly string[];
    }
  | { readonly kind: "end"; readonly episode: Episode };

/** Starts the episode of `spec` on `env`, its policy the client (see the top of this file). */
export function startEpisodeSession<TTask>(env: AnyEnv, spec: EpisodeSpec<TTask>): EpisodeSession {
  let next = deferred<Turning>();
  let pendingAct: Deferred<Act> | undefined;
  let seen = 0;
  let clock: TurnClock = startTurnClock(spec.budget, 0);
  let played: PlayedTurn | undefined;
  let lastObservation: readonly Message[] = [];
  let tools: readonly ToolSpec[] = [];
  let over = false;
  let started = false;
  const client: Policy = {
    name: "openenv-client",
    act(conversation, context) {
      const fresh = conversation.slice(seen).filter((message) => message.role !== "assistant");
      seen = conversation.length + 1; // the act's own message comes next
      tools = context.tools;
      pendingAct = deferred<Act>();
      next.resolve({
        kind: "act",
        messages: fresh,
        tools: context.tools,
        validActions: context.privileged.validActions(),
      });
      return pendingAct.promise;
    },
  };
  const onTurn = (turn: Turn, step: TurnStep): void => {
    played = { turn, progressBefore: step.progressBefore };
    lastObservation = step.observation;
    clock = advanceTurnClock(clock, turn.segment);
  };
  const running = (): Promise<void> =>
    runEpisode(env, client, spec as EpisodeSpec<unknown>, {
      annotate: true,
      onTurn,
    }).then(
      (episode) => {
        over = true;
        next.resolve({ kind: "end", episode });
      },
      (error: unknown) => {
        over = true;
        if (!(error instanceof StoppedError)) next.reject(error);
      },
    );
  const moment = (turning: Turning): EpisodeMoment => {
    if (turning.kind === "act")
      return {
        budget: spec.budget,
        messages: turning.messages,
        turn: turnInScope(clock),
        turnsLeft: turnsLeft(clock),
        done: false,
        ...(played === undefined ? {} : { played }),
        tools: turning.tools,
        validActions: turning.validActions,
      };
    return {
      budget: spec.budget,
      messages: lastObservation,
      turn: clock.used,
      turnsLeft: turnsLeft(clock),
      done: true,
      ...(played === undefined ? {} : { played }),
      tools,
      validActions: [],
      episode: turning.episode,
    };
  };
  const nextMoment = async (): Promise<EpisodeMoment> => {
    const turning = await next.promise;
    next = deferred<Turning>();
    return moment(turning);
  };
  return {
    budget: spec.budget,
    start() {
      if (started) throw new Error("the episode was started already");
      started = true;
      void running();
      return nextMoment();
    },
    step(message) {
      if (over || pendingAct === undefined) throw new Error("the episode is over: reset to start another");
      const act = pendingAct;
      pendingAct = undefined;
      act.resolve({ message });
      return nextMoment();
    },
    over: () => over,
    turnsTaken: () => clock.taken,
    tools: () => tools,
    abandon() {
      over = true;
      pendingAct?.reject(new StoppedError("the client left the episode"));
      pendingAct = undefined;
    },
  };
}
