// Sokoban rules: the compiled board of a level (static parts, precomputed once per task), one move, and
// the rewards (as in gym-sokoban / RAGEN): -0.1 per turn, +1 for a box pushed onto a goal, -1 for a box
// pushed off one, +10 when every box is on a goal. Walking into a wall, or pushing a box into a wall or
// another box, is a legal move that changes nothing (it still costs the turn and the -0.1).
// Cells are row-major flat indices; directions are indices into DIRECTIONS (Up, Down, Left, Right).
import { COLUMN_DELTA, ROW_DELTA } from "../shared/directions.js";
import type { SokobanTask } from "./levels.js";

export const REWARD_STEP = -0.1;
export const REWARD_BOX_ON_GOAL = 1;
export const REWARD_BOX_OFF_GOAL = -1;
export const REWARD_SOLVED = 10;

export interface Board {
  readonly width: number;
  readonly height: number;
  /** Neighbour of cell c in direction d at index 4c+d: a non-wall cell, or -1 (wall or outside the grid). */
  readonly neighbor: Int32Array;
  readonly isWall: Uint8Array;
  readonly isGoal: Uint8Array;
  /** Index of each non-wall cell among the non-wall cells (-1 for walls), and back. */
  readonly floorIndex: Int32Array;
  readonly floorCells: Int32Array;
  readonly startPlayer: number;
  /** Box cells at the start, ascending. */
  readonly startBoxes: readonly number[];
  readonly boxCount: number;
}

export function compileBoard(task: SokobanTask): Board {
  const height = task.rows.length;
  const width = task.rows[0]!.length;
  const cells = width * height;
  const isWall = new Uint8Array(cells);
  const isGoal = new Uint8Array(cells);
  const startBoxes: number[] = [];
  let startPlayer = -1;
  for (let row = 0; row < height; row++) {
    for (let column = 0; column < width; column++) {
      const cell = row * width + column;
      const char = task.rows[row]![column];
      if (char === "#") isWall[cell] = 1;
      if (char === "." || char === "*" || char === "+") isGoal[cell] = 1;
      if (char === "$" || char === "*") startBoxes.push(cell);
      if (char === "@" || char === "+") startPlayer = cell;
    }
  }
  const neighbor = new Int32Array(cells * 4).fill(-1);
  const floorIndex = new Int32Array(cells).fill(-1);
  const floorList: number[] = [];
  for (let cell = 0; cell < cells; cell++) {
    if (isWall[cell] === 1) continue;
    floorIndex[cell] = floorList.length;
    floorList.push(cell);
    const row = Math.floor(cell / width);
    const column = cell % width;
    for (let direction = 0; direction < 4; direction++) {
      const nextRow = row + ROW_DELTA[direction]!;
      const nextColumn = column + COLUMN_DELTA[direction]!;
      if (nextRow < 0 || nextRow >= height || nextColumn < 0 || nextColumn >= width) continue;
      const next = nextRow * width + nextColumn;
      if (isWall[next] === 0) neighbor[cell * 4 + direction] = next;
    }
  }
  return {
    width,
    height,
    neighbor,
    isWall,
    isGoal,
    floorIndex,
    floorCells: Int32Array.from(floorList),
    startPlayer,
    startBoxes,
    boxCount: startBoxes.length,
  };
}

export const MOVED = 0;
export const PUSHED = 1;
export const BLOCKED = 2;
export type MoveKind = typeof MOVED | typeof PUSHED | typeof BLOCKED;

export interface MoveResult {
  readonly kind: MoveKind;
  readonly player: number;
  /** Box cells after the move, ascending (the same array when no box moved). */
  readonly boxes: readonly number[];
  /** Boxes on goals after minus before: -1, 0 or +1. */
  readonly goalDelta: number;
}

/** One move of the player. Pure: never mutates `boxes`. */
export function applyMove(board: Board, player: number, boxes: readonly number[], direction: number): MoveResult {
  const next = board.neighbor[player * 4 + direction]!;
  if (next < 0) return { kind: BLOCKED, player, boxes, goalDelta: 0 };
  const boxAt = boxes.indexOf(next);
  if (boxAt < 0) return { kind: MOVED, player: next, boxes, goalDelta: 0 };
  const beyond = board.neighbor[next * 4 + direction]!;
  if (beyond < 0 || boxes.includes(beyond)) return { kind: BLOCKED, player, boxes, goalDelta: 0 };
  const moved = boxes.slice();
  moved[boxAt] = beyond;
  sortSmall(moved, boxAt);
  return { kind: PUSHED, player: next, boxes: moved, goalDelta: board.isGoal[beyond]! - board.isGoal[next]! };
}

/** Restore ascending order after the element at `index` changed (insertion step both ways). */
function sortSmall(values: number[], index: number): void {
  let at = index;
  const value = values[at]!;
  while (at > 0 && values[at - 1]! > value) {
    values[at] = values[at - 1]!;
    at -= 1;
  }
  while (at < values.length - 1 && values[at + 1]! < value) {
    values[at] = values[at + 1]!;
    at += 1;
  }
  values[at] = value;
}

export function countOnGoal(board: Board, boxes: readonly number[]): number {
  let count = 0;
  for (const box of boxes) count += board.isGoal[box]!;
  return count;
}

/** Reward of one turn: -0.1, plus +-1 per box moved on or off a goal, plus 10 on solving. */
export function moveReward(goalDelta: number, solved: boolean): number {
  const boxReward = goalDelta > 0 ? REWARD_BOX_ON_GOAL : goalDelta < 0 ? REWARD_BOX_OFF_GOAL : 0;
  return REWARD_STEP + boxReward + (solved ? REWARD_SOLVED : 0);
}
