// Sokoban for text agents.
//
// Description: push every box onto a goal in a walled room. Procedural rooms as in RAGEN / gym-sokoban
//   (random-walk room, reverse playing from the solved position); default 6x6 cells (outer walls
//   included) with 1 box. Only solvable, not yet solved levels are generated. Levels can also be read
//   from text files in the common format (see levels.ts); runs refuse an unsolvable one (tasks.problem: the
//   BFS oracle finds no solved state), and one whose state graph is past maxStates (solvability unknown).
// Actions: "Up", "Down", "Left", "Right" (bare, or as <answer>Up</answer>; any case; aliases such as
//   "u", "north", "move up"). Walking into a wall, or pushing a box into a wall or a box, is a legal move
//   that changes nothing. Text that names no direction is invalid: it costs the turn (-0.1) and the
//   observation explains the answer format. actions.valid is always the four directions.
// Observation: reset gives [system: rules, legend, answer format; user: the grid]; each step gives
//   [user: one line of feedback ("Moved Up.", "Pushed a box Left.", "Up is blocked; nothing moved.",
//   "Invalid action. ...") then the grid]. Grid legend: # wall, _ floor, . goal, $ box, * box on goal,
//   @ player, + player on goal, one line per row.
// Rewards: -0.1 per turn, +1 for pushing a box onto a goal, -1 for pushing one off, +10 on solving.
// Episode end: terminated with stopReason "success" when every box is on a goal. There is no failure
//   end: a deadlock just wastes turns until the rollout's budget cuts the episode.
// Info: progress = -(oracle's remaining turns); in a deadlock, -(largest finite distance of the level + 1).
//   stateKey = hash of (task id, state number). segment = 0.
// Oracle: exact BFS over the level's reachable state graph, built once per task and cached (oracle.ts);
//   budget-aware answers from it (shared/shortest-path-answer.ts): the same optimal moves at every horizon,
//   value 1 within t turns when the optimal distance is at most t.
// Reference budget: referenceFactor x the optimal solution length (unsolvable imported levels: x the
//   number of non-wall cells).
// Structure: the level with every cell the player cannot reach (through floor, goals and boxes) turned to wall
//   (shared/playable-rows.ts). A generated room is one carved region, so its structure is the level itself (the
//   key is the task id); an imported level with floor outside its walls loses only that floor. Not counted.
// Arguments: see config.ts (width, height, boxes, searchDepth, referenceFactor, maxStates).
import type { Env, StepResult } from "../../core/env.js";
import type { OracleAnswer } from "../../core/oracle.js";
import { DataError } from "../../core/errors.js";
import { hashHex } from "../../core/hash.js";
import type { Json } from "../../core/json.js";
import type { Message } from "../../core/message.js";
import { DIRECTIONS, parseDirection } from "../shared/directions.js";
import { parseOptions } from "../../core/options.js";
import { playableRows } from "../shared/playable-rows.js";
import { shortestPathAnswer } from "../shared/shortest-path-answer.js";
import { compiledTask, slotKey, slotView, type CompiledTask } from "../shared/compiled-task.js";
import { createTaskCache } from "../shared/task-cache.js";
import { playTurn, startTurn, type TextTurns } from "../shared/text-turns.js";
import { sokobanConfigSchema, type SokobanConfig } from "./config.js";
import { generateLevel } from "./generator.js";
import { levelFromRows, parseLevels, printLevel, type SokobanTask } from "./levels.js";
import { buildOracle, tryBuildOracle, type SokobanOracle } from "./oracle.js";
import {
  createRenderer,
  moveFeedback,
  SOKOBAN_INVALID_FEEDBACK,
  SOKOBAN_SYSTEM_PROMPT,
  type Renderer,
} from "./render.js";
import { applyMove, compileBoard, countOnGoal, moveReward, REWARD_STEP, type Board } from "./rules.js";
import { directionActions } from "../shared/direction-actions.js";

export type { SokobanConfig } from "./config.js";
export type { SokobanTask } from "./levels.js";

/** Everything precomputed for one level; views and keys are per oracle node (a rollout revisits few states). */
export interface CompiledSokoban extends CompiledTask {
  readonly board: Board;
  readonly oracle: SokobanOracle;
  readonly render: Renderer;
}

export interface SokobanState {
  readonly task: SokobanTask;
  readonly compiled: CompiledSokoban;
  readonly player: number;
  /** Box cells, ascending. */
  readonly boxes: readonly number[];
  /** State number within the task (a bijection of player and boxes) and its node in the oracle graph. */
  readonly id: number;
  readonly node: number;
  readonly solved: boolean;
}

/** Stable id of a level: a hash of its canonical text. */
function sokobanTaskId(task: SokobanTask): string {
  return `sokoban-${hashHex(printLevel(task))}`;
}

/** The structure of a level: the id of the level with the cells the player cannot reach turned to wall. */
function sokobanStructureKey(task: SokobanTask): string {
  return sokobanTaskId({ rows: playableRows(task.rows, { start: "@+", blocks: "#", ends: "", filler: "#" }) });
}

function compile(
  task: SokobanTask,
  maxStates: number,
  board = compileBoard(task),
  oracle = buildOracle(board, maxStates),
): CompiledSokoban {
  const slots = oracle.nodeCount;
  return { ...compiledTask(sokobanTaskId(task), slots, slots), board, oracle, render: createRenderer(board) };
}

function makeState(
  task: SokobanTask,
  compiled: CompiledSokoban,
  player: number,
  boxes: readonly number[],
): SokobanState {
  const id = compiled.oracle.stateId(player, boxes);
  const node = compiled.oracle.nodeOfId(id);
  const solved = countOnGoal(compiled.board, boxes) === compiled.board.boxCount;
  return { task, compiled, player, boxes, id, node, solved };
}

function progressOf(state: SokobanState): number {
  const remaining = state.compiled.oracle.distance(state.node);
  return Number.isFinite(remaining) ? -remaining : -(state.compiled.oracle.maxDistance + 1);
}

const TURNS: TextTurns<SokobanState> = {
  view: (state) => slotView(state.compiled, state.node, () => state.compiled.render(state.player, state.boxes)),
  end: (state) => (state.solved ? "success" : null),
  progress: progressOf,
  stateKey: (state) => slotKey(state.compiled, state.node, state.id),
  overFeedback: "The puzzle is already solved.",
  invalidFeedback: () => SOKOBAN_INVALID_FEEDBACK,
  invalidReward: REWARD_STEP,
};

function decode(json: Json): SokobanTask {
  const rows =
    json !== null && typeof json === "object" && !Array.isArray(json) ? (json as { rows?: unknown }).rows : undefined;
  if (!Array.isArray(rows) || !rows.every((row): row is string => typeof row === "string")) {
    throw new DataError('sokoban: a task must be {"rows": [string, ...]}');
  }
  return levelFromRows(rows, "task");
}

function stepState(state: SokobanState, action: Message): StepResult<SokobanState> {
  const direction = parseDirection(typeof action.content === "string" ? action.content : "");
  return playTurn(TURNS, state, direction < 0 ? null : DIRECTIONS[direction]!, () => {
    const move = applyMove(state.compiled.board, state.player, state.boxes, direction);
    const next = makeState(state.task, state.compiled, move.player, move.boxes);
    return {
      state: next,
      feedback: moveFeedback(move.kind, direction, next.solved),
      reward: moveReward(move.goalDelta, next.solved),
    };
  });
}

export function sokoban(options?: Partial<SokobanConfig>): Env<SokobanTask, SokobanState> {
  const config: SokobanConfig = parseOptions("sokoban", sokobanConfigSchema, options);
  const cache = createTaskCache<SokobanTask, CompiledSokoban>(printLevel, (task) => compile(task, config.maxStates));
  /** The optimal solution length; unsolvable imported levels: the number of floor cells. */
  const optimalTurns = (task: SokobanTask): number => {
    const compiled = cache.get(task);
    const optimal = compiled.oracle.startDistance;
    return Number.isFinite(optimal) ? optimal : compiled.board.floorCells.length;
  };
  return {
    spec: { name: "sokoban", config },
    tasks: {
      generate(seed) {
        const level = generateLevel(config, seed);
        cache.put(level.task, compile(level.task, config.maxStates, level.board, level.oracle));
        return level.task;
      },
      id: sokobanTaskId,
      structure: "the level with the cells the player cannot reach turned to wall",
      structureKey: sokobanStructureKey,
      encode: (task) => ({ rows: [...task.rows] }),
      decode,
      parse: parseLevels,
      problem(task) {
        const board = compileBoard(task);
        const oracle = tryBuildOracle(board, config.maxStates);
        if (oracle === null)
          return `has more than ${config.maxStates} reachable states, past what the BFS oracle builds (sokoban option maxStates), so whether it can be solved is not known: raise it (--env-opt maxStates=N, at most 50000000) or leave the level out`;
        if (!Number.isFinite(oracle.startDistance))
          return `cannot be solved: the BFS oracle searched all ${oracle.nodeCount} states reachable from the start and in none is every box on a goal`;
        cache.put(task, compile(task, config.maxStates, board, oracle));
        return undefined;
      },
      referenceBudget: (task) => config.referenceFactor * optimalTurns(task),
      optimalTurns,
    },
    actions: directionActions(TURNS),
    oracle: {
      answer(state, turnsLeft): OracleAnswer {
        const { oracle } = state.compiled;
        return shortestPathAnswer(oracle.optimal(state.node), oracle.distance(state.node), turnsLeft);
      },
    },
    reset(task) {
      const compiled = cache.get(task);
      const state = makeState(task, compiled, compiled.board.startPlayer, compiled.board.startBoxes);
      return startTurn(TURNS, state, SOKOBAN_SYSTEM_PROMPT);
    },
    step: stepState,
  };
}
