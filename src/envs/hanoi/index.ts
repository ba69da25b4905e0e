// Tower of Hanoi for text agents: the optimal horizon is dialled by the number of disks (2^n - 1 moves).
//
// Description: move every disk from its start configuration to peg C, one top disk per turn, never putting
//   a disk on a smaller one. Generated tasks start with every disk on A (or, with randomStart, from a
//   seeded random legal configuration); task files give "<disks> [<pegs>]" per line (tasks.ts).
// Actions: "<source>-><target>" with pegs A, B, C, e.g. "A->C" (bare or <answer>A->C</answer>; any case;
//   also "AC", "A to C", "move disk 1 from A to C", ...; see actions.ts). actions.valid lists the legal
//   moves in the order A->B, A->C, B->A, B->C, C->A, C->B. Text naming no move is invalid (parsedAction
//   null); a move from an empty peg, onto a smaller disk, or onto the same peg is invalid too
//   (parsedAction is the move's text). Both cost the turn, change nothing, and the observation lists the
//   valid moves.
// Observation: reset gives [system: rules and answer format; user: the pegs]; each step gives [user: one
//   line of feedback, then the pegs]. Pegs are one line each, disks bottom to top, 1 the smallest.
// Rewards: 1 on reaching the target, 0 for every other turn.
// Episode end: terminated with stopReason "success" when every disk is on C. No failure end.
// Info: progress = -(optimal moves remaining); stateKey = hash of the configuration (equal configurations
//   of equally many disks have equal keys across tasks, since the target is always C).
// Oracle: closed-form optimal distance from any configuration (oracle.ts); optimal = every legal move one
//   step closer, at every horizon; value within t turns: 1 when the distance is at most t
//   (shared/shortest-path-answer.ts).
// Reference budget: referenceFactor x the optimal number of moves from the start.
// Distinct tasks: with randomStart 3^disks - 1 (every configuration but the target), else 1 (tasks.distinctTasks).
// Structure: the task itself, its start configuration (the goal is always every disk on C): the key is the task id
//   and tasks.distinctStructures = tasks.distinctTasks. Starts that swap pegs A and B are not merged (their texts
//   differ).
// Arguments: see config.ts (disks, randomStart, referenceFactor).
import type { Env, StepResult } from "../../core/env.js";
import type { OracleAnswer } from "../../core/oracle.js";
import { DataError } from "../../core/errors.js";
import { hashHex } from "../../core/hash.js";
import type { Json } from "../../core/json.js";
import type { Message } from "../../core/message.js";
import { parseOptions } from "../../core/options.js";
import { shortestPathAnswer } from "../shared/shortest-path-answer.js";
import { playTurn, startTurn, type PlayedAction, type TextTurns } from "../shared/text-turns.js";
import { parseMove } from "./actions.js";
import { hanoiConfigSchema, type HanoiConfig } from "./config.js";
import { generateHanoi } from "./generator.js";
import { distanceTo, optimalMoves } from "./oracle.js";
import { hanoiSystemPrompt, illegalFeedback, invalidFeedback, renderPegs } from "./render.js";
import {
  checkMove,
  isSolved,
  legalMoves,
  moveDisk,
  moveText,
  PEGS,
  REWARD_SOLVED,
  type Configuration,
} from "./rules.js";
import { hanoiTask, parseHanoiTasks, type HanoiTask } from "./tasks.js";

export type { HanoiConfig } from "./config.js";
export type { HanoiTask } from "./tasks.js";

export interface HanoiState {
  readonly task: HanoiTask;
  /** Peg of every disk, smallest first. */
  readonly pegs: Configuration;
}

function pegLetters(pegs: Configuration): string {
  return pegs.map((peg) => PEGS[peg]).join("");
}

function keyOf(state: HanoiState): string {
  return hashHex(`hanoi:${pegLetters(state.pegs)}`);
}

function validMoves(pegs: Configuration): string[] {
  return isSolved(pegs) ? [] : legalMoves(pegs).map(([from, to]) => moveText(from, to));
}

const TURNS: TextTurns<HanoiState> = {
  view: (state) => renderPegs(state.pegs),
  end: (state) => (isSolved(state.pegs) ? "success" : null),
  progress: (state) => -distanceTo(state.pegs),
  stateKey: keyOf,
  overFeedback: "The puzzle is already solved.",
  invalidFeedback: (state) => invalidFeedback(validMoves(state.pegs)),
  invalidReward: 0,
};

function decode(json: Json): HanoiTask {
  const record =
    json !== null && typeof json === "object" && !Array.isArray(json)
      ? (json as { disks?: unknown; start?: unknown })
      : {};
  if (typeof record.disks !== "number" || typeof record.start !== "string")
    throw new DataError('hanoi: a task must be {"disks": number, "start": string}');
  return hanoiTask(record.disks, record.start, "task");
}

function moveOfReply(action: Message): readonly [number, number] | null {
  return parseMove(typeof action.content === "string" ? action.content : "");
}

function parsedMove(move: readonly [number, number] | null): string | null {
  return move === null ? null : moveText(move[0], move[1]);
}

/** Play a parsed move in a live state: an illegal one changes nothing and is invalid. */
function play(state: HanoiState, move: readonly [number, number], parsedAction: string): PlayedAction<HanoiState> {
  const verdict = checkMove(state.pegs, move[0], move[1]);
  if (!verdict.legal) {
    const feedback = illegalFeedback(parsedAction, verdict.reason, validMoves(state.pegs));
    return { state, feedback, reward: 0, invalid: true };
  }
  const next: HanoiState = { task: state.task, pegs: moveDisk(state.pegs, verdict.disk, move[1]) };
  const solved = isSolved(next.pegs);
  const feedback = `Moved disk ${verdict.disk + 1} from ${PEGS[move[0]]} to ${PEGS[move[1]]}.${solved ? " Every disk is on C: solved!" : ""}`;
  return { state: next, feedback, reward: solved ? REWARD_SOLVED : 0 };
}

function stepState(state: HanoiState, action: Message): StepResult<HanoiState> {
  const move = moveOfReply(action);
  return playTurn(TURNS, state, parsedMove(move), (parsedAction) => play(state, move!, parsedAction));
}

function hanoiTaskId(task: HanoiTask): string {
  return `hanoi-${task.disks}-${task.start}`;
}

function startPegs(task: HanoiTask): Configuration {
  return [...task.start].map((letter) => PEGS.indexOf(letter as (typeof PEGS)[number]));
}

export function hanoi(options?: Partial<HanoiConfig>): Env<HanoiTask, HanoiState> {
  const config: HanoiConfig = parseOptions("hanoi", hanoiConfigSchema, options);
  const distinctTasks = (): number => (config.randomStart ? 3 ** config.disks - 1 : 1);
  return {
    spec: { name: "hanoi", config },
    tasks: {
      generate: (seed) => generateHanoi(config.disks, config.randomStart, seed),
      distinctTasks,
      id: hanoiTaskId,
      structure: "the start configuration and the goal (every disk on C): the task itself",
      structureKey: hanoiTaskId,
      distinctStructures: distinctTasks,
      encode: (task) => ({ disks: task.disks, start: task.start }),
      decode,
      parse: parseHanoiTasks,
      referenceBudget: (task) => config.referenceFactor * distanceTo(startPegs(task)),
      optimalTurns: (task) => distanceTo(startPegs(task)),
    },
    actions: {
      valid: (state) => validMoves(state.pegs),
      stateKey: keyOf,
      parse: (_state, action) => parsedMove(moveOfReply(action)),
    },
    oracle: {
      answer: (state, turnsLeft): OracleAnswer =>
        shortestPathAnswer(optimalMoves(state.pegs), distanceTo(state.pegs), turnsLeft),
    },
    reset(task) {
      return startTurn(TURNS, { task, pegs: startPegs(task) }, hanoiSystemPrompt(task.disks));
    },
    step: stepState,
  };
}
