// What the agent reads in sokoban: the system prompt (rules, legend, answer format), the grid, and one
// line of feedback per turn. The grid uses one character per cell and one line per row:
//   # wall   _ floor   . goal   $ box   * box on goal   @ you   + you on goal   (space) outside the room
// Rendering splices boxes and player into a precomputed string of the static cells; index.ts caches the
// result per state, so a rollout renders each distinct state once.
import { DIRECTIONS } from "../shared/directions.js";
import { MOVED, PUSHED, type Board, type MoveKind } from "./rules.js";

export const SOKOBAN_SYSTEM_PROMPT = [
  "You are playing Sokoban. Push every box onto a goal.",
  "Map: # wall, _ floor, . goal, $ box, * box on goal, @ you, + you on goal.",
  "Each turn you move one cell: Up, Down, Left or Right. Moving into a box pushes it one cell if the cell behind it is free. Boxes cannot be pulled.",
  "Answer with exactly one action, e.g. <answer>Up</answer>.",
].join("\n");

export const SOKOBAN_INVALID_FEEDBACK =
  "Invalid action. Answer with one of Up, Down, Left, Right, e.g. <answer>Up</answer>.";

const CODE = {
  wall: 35,
  floor: 95,
  goal: 46,
  box: 36,
  boxOnGoal: 42,
  player: 64,
  playerOnGoal: 43,
  outside: 32,
  newline: 10,
} as const;

export type Renderer = (player: number, boxes: readonly number[]) => string;

/** Cells the player can walk to from the start, ignoring boxes. */
function walkable(board: Board): Uint8Array {
  const seen = new Uint8Array(board.isWall.length);
  const stack = [board.startPlayer];
  seen[board.startPlayer] = 1;
  while (stack.length > 0) {
    const cell = stack.pop()!;
    for (let direction = 0; direction < 4; direction++) {
      const next = board.neighbor[cell * 4 + direction]!;
      if (next >= 0 && seen[next] === 0) {
        seen[next] = 1;
        stack.push(next);
      }
    }
  }
  return seen;
}

/** A renderer for one board: static cells precomputed, trailing outside cells trimmed from each row. */
export function createRenderer(board: Board): Renderer {
  const { width, height } = board;
  const reachable = walkable(board);
  const boxCells = new Set(board.startBoxes);
  const staticCode = (cell: number): number => {
    if (board.isWall[cell] === 1) return CODE.wall;
    if (board.isGoal[cell] === 1) return CODE.goal;
    return reachable[cell] === 1 || boxCells.has(cell) ? CODE.floor : CODE.outside;
  };
  const codes: number[] = [];
  const position = new Int32Array(width * height).fill(-1);
  for (let row = 0; row < height; row++) {
    let end = width;
    while (end > 0 && staticCode(row * width + end - 1) === CODE.outside) end -= 1;
    for (let column = 0; column < end; column++) {
      position[row * width + column] = codes.length;
      codes.push(staticCode(row * width + column));
    }
    if (row < height - 1) codes.push(CODE.newline);
  }
  const base = String.fromCharCode(...codes);
  const patches: { at: number; code: number }[] = [];
  return (player, boxes) => {
    patches.length = 0;
    for (const box of boxes)
      patches.push({ at: position[box]!, code: board.isGoal[box] === 1 ? CODE.boxOnGoal : CODE.box });
    patches.push({ at: position[player]!, code: board.isGoal[player] === 1 ? CODE.playerOnGoal : CODE.player });
    patches.sort((a, b) => a.at - b.at);
    let out = "";
    let from = 0;
    for (const patch of patches) {
      out += base.slice(from, patch.at) + String.fromCharCode(patch.code);
      from = patch.at + 1;
    }
    return out + base.slice(from);
  };
}

const MOVED_TEXT = DIRECTIONS.map((direction) => `Moved ${direction}.`);
const PUSHED_TEXT = DIRECTIONS.map((direction) => `Pushed a box ${direction}.`);
const BLOCKED_TEXT = DIRECTIONS.map((direction) => `${direction} is blocked; nothing moved.`);

/** One line saying what a move did. */
export function moveFeedback(kind: MoveKind, direction: number, solved: boolean): string {
  const text = (kind === MOVED ? MOVED_TEXT : kind === PUSHED ? PUSHED_TEXT : BLOCKED_TEXT)[direction]!;
  return solved ? `${text} Every box is on a goal: solved!` : text;
}
