// The turn skeleton of the one-reply text games (sokoban, thin ice, vault, frozenlake, hanoi): every observation
// after the first is one feedback line over the state's view; a reply in an ended state changes nothing and says
// so; a reply naming no action costs the turn and explains the answer format; a played action shows its effect.
// Each env says only what differs: its view, how a state ends, its progress and key, and its feedback texts.
import type { ResetResult, StepInfo, StepResult } from "../../core/env.js";
import { systemMessage, userMessage } from "../../core/message.js";

/** How a state ends the episode, if it does. */
export type StateEnd = "success" | "failure" | null;

export interface TextTurns<TState> {
  /** The state as the agent sees it (a grid, the pegs, the lock line), under every feedback line. */
  view(state: TState): string;
  end(state: TState): StateEnd;
  progress(state: TState): number;
  stateKey(state: TState): string;
  /** The feedback line for a reply in an ended state. */
  readonly overFeedback: string;
  /** The feedback line for a reply naming no action, and what such a turn costs. */
  invalidFeedback(state: TState): string;
  readonly invalidReward: number;
}

/** What playing a parsed action did: the next state, its feedback line and reward; `invalid` for an action the
 * state does not allow (it costs the turn like a reply naming none, but keeps its parsed text). */
export interface PlayedAction<TState> {
  readonly state: TState;
  readonly feedback: string;
  readonly reward: number;
  readonly invalid?: boolean;
}

const NO_ACTIONS: readonly string[] = Object.freeze([]);

/** The valid actions of a game whose live states all offer the same `actions` and whose ended states offer none. */
export function liveActions<TState>(turns: TextTurns<TState>, actions: readonly string[]) {
  return (state: TState): readonly string[] => (turns.end(state) === null ? actions : NO_ACTIONS);
}

/** The info of a state (segment 0: these games have one user turn). */
export function turnInfo<TState>(
  turns: TextTurns<TState>,
  state: TState,
  invalid: boolean,
  parsedAction: string | null,
): StepInfo {
  const base = { progress: turns.progress(state), stateKey: turns.stateKey(state), invalid, parsedAction, segment: 0 };
  const end = turns.end(state);
  return end === null ? base : { ...base, stopReason: end };
}

/** The first messages of an episode: the system prompt, then the start state's view. */
export function startTurn<TState>(turns: TextTurns<TState>, state: TState, systemPrompt: string): ResetResult<TState> {
  return {
    state,
    observation: [systemMessage(systemPrompt), userMessage(turns.view(state))],
    info: turnInfo(turns, state, false, null),
  };
}

/** One turn: `parsedAction` is the canonical action the reply names (null: none); `play` plays it in a live state. */
export function playTurn<TState>(
  turns: TextTurns<TState>,
  state: TState,
  parsedAction: string | null,
  play: (action: string) => PlayedAction<TState>,
): StepResult<TState> {
  const show = (target: TState, line: string) => [userMessage(`${line}\n${turns.view(target)}`)];
  if (turns.end(state) !== null) {
    const info = turnInfo(turns, state, parsedAction === null, parsedAction);
    return { state, observation: show(state, turns.overFeedback), reward: 0, terminated: true, info };
  }
  if (parsedAction === null) {
    const observation = show(state, turns.invalidFeedback(state));
    return {
      state,
      observation,
      reward: turns.invalidReward,
      terminated: false,
      info: turnInfo(turns, state, true, null),
    };
  }
  const played = play(parsedAction);
  return {
    state: played.state,
    observation: show(played.state, played.feedback),
    reward: played.reward,
    terminated: turns.end(played.state) !== null,
    info: turnInfo(turns, played.state, played.invalid === true, parsedAction),
  };
}
