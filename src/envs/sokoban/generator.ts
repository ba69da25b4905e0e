// Seeded procedural sokoban levels, as in gym-sokoban / RAGEN:
//   1. room topology: a random walk through the interior of a walled room carves floor with small masks;
//   2. goals and the player are placed on random floor cells, each box starts on its goal;
//   3. reverse playing: a breadth-first search over reverse moves (the player steps back, optionally
//      pulling a box) up to `searchDepth` moves keeps the most displaced configuration (largest total
//      distance of boxes from their nearest goal; ties: most reverse moves, then a seeded pick);
//   4. the forward BFS oracle verifies the level (solvable, not already solved), else a new room is drawn.
//      Levels whose state graph exceeds maxStates are skipped too (up to MAX_OVERSIZED times in a row,
//      then generation fails naming the option): large rooms with many boxes lean towards smaller graphs.
// A level is fully reproducible from (config, seed).
import { DataError } from "../../core/errors.js";
import { createRng, type Rng } from "../../core/rng.js";
import { levelFromRows, type SokobanTask } from "./levels.js";
import { createStateIdentifier, tryBuildOracle, type SokobanOracle } from "./oracle.js";
import { compileBoard, type Board } from "./rules.js";

export interface GeneratorOptions {
  readonly width: number;
  readonly height: number;
  readonly boxes: number;
  readonly searchDepth: number;
  readonly maxStates: number;
}

export interface GeneratedLevel {
  readonly task: SokobanTask;
  readonly board: Board;
  readonly oracle: SokobanOracle;
}

const MAX_ATTEMPTS = 200;
/** Rooms whose state graph is too large for the oracle, tolerated before giving up. */
const MAX_OVERSIZED = 10;
/** States the reverse search visits at most per room (the search stops there, deterministically). */
const REVERSE_STATE_CAP = 20_000;
/** Probability that the random walk changes direction at each step. */
const TURN_PROBABILITY = 0.35;

/** Cells carved around the walker, as (row, column) offsets. */
const MASKS: readonly (readonly (readonly [number, number])[])[] = [
  [[0, 0]],
  [
    [0, -1],
    [0, 0],
    [0, 1],
  ],
  [
    [-1, 0],
    [0, 0],
    [1, 0],
  ],
  [
    [0, 0],
    [0, 1],
    [1, 0],
  ],
  [
    [0, 0],
    [0, 1],
    [1, 0],
    [1, 1],
  ],
];
const WALK_STEPS: readonly (readonly [number, number])[] = [
  [-1, 0],
  [1, 0],
  [0, -1],
  [0, 1],
];

/** Floor map (true = floor) of a room carved by a random walk; the outer ring stays wall. */
export function carveRoom(rng: Rng, width: number, height: number): boolean[][] {
  const floor = Array.from({ length: height }, () => new Array<boolean>(width).fill(false));
  const clamp = (value: number, size: number): number => Math.min(size - 2, Math.max(1, value));
  let row = 1 + rng.int(height - 2);
  let column = 1 + rng.int(width - 2);
  let step = rng.pick(WALK_STEPS);
  const steps = Math.floor(1.5 * (width + height));
  for (let i = 0; i < steps; i++) {
    if (rng.next() < TURN_PROBABILITY) step = rng.pick(WALK_STEPS);
    row = clamp(row + step[0], height);
    column = clamp(column + step[1], width);
    for (const [dRow, dColumn] of rng.pick(MASKS)) {
      const r = row + dRow;
      const c = column + dColumn;
      if (r >= 1 && r <= height - 2 && c >= 1 && c <= width - 2) floor[r]![c] = true;
    }
  }
  return floor;
}

function roomRows(
  floor: readonly (readonly boolean[])[],
  width: number,
  goals: readonly number[],
  boxes: readonly number[],
  player: number,
): string[] {
  return floor.map((line, row) =>
    line
      .map((isFloor, column) => {
        const cell = row * width + column;
        if (!isFloor) return "#";
        const goal = goals.includes(cell);
        if (cell === player) return goal ? "+" : "@";
        if (boxes.includes(cell)) return goal ? "*" : "$";
        return goal ? "." : " ";
      })
      .join(""),
  );
}

/** Sum over boxes of the Manhattan distance to the nearest goal. */
function displacement(board: Board, boxes: readonly number[], goals: readonly number[]): number {
  let total = 0;
  for (const box of boxes) {
    let nearest = Infinity;
    for (const goal of goals) {
      const distance =
        Math.abs(Math.floor(box / board.width) - Math.floor(goal / board.width)) +
        Math.abs((box % board.width) - (goal % board.width));
      nearest = Math.min(nearest, distance);
    }
    total += nearest;
  }
  return total;
}

interface Placement {
  readonly player: number;
  readonly boxes: readonly number[];
}

/** Reverse moves from a placement: the player steps to a free neighbour, optionally pulling the box behind it. */
function reverseMoves(board: Board, player: number, boxes: readonly number[]): Placement[] {
  const out: Placement[] = [];
  for (let direction = 0; direction < 4; direction++) {
    const to = board.neighbor[player * 4 + direction]!;
    if (to < 0 || boxes.includes(to)) continue;
    out.push({ player: to, boxes });
    const behind = board.neighbor[player * 4 + (direction ^ 1)]!;
    const boxAt = behind < 0 ? -1 : boxes.indexOf(behind);
    if (boxAt >= 0) {
      const pulled = boxes.slice();
      pulled[boxAt] = player;
      pulled.sort((a, b) => a - b);
      out.push({ player: to, boxes: pulled });
    }
  }
  return out;
}

/** The most displaced placement reachable by at most `depth` reverse moves (null if none moved a box). */
function reversePlay(rng: Rng, board: Board, goals: readonly number[], depth: number): Placement | null {
  const stateId = createStateIdentifier(board);
  const start: Placement = { player: board.startPlayer, boxes: board.startBoxes };
  const seen = new Set<number>([stateId(start.player, start.boxes)]);
  let frontier: Placement[] = [start];
  let best: Placement[] = [];
  let bestScore = 0;
  let bestLevel = 0;
  for (let level = 1; level <= depth && frontier.length > 0; level++) {
    const next: Placement[] = [];
    for (const placement of frontier) {
      for (const moved of reverseMoves(board, placement.player, placement.boxes)) {
        const id = stateId(moved.player, moved.boxes);
        if (seen.has(id) || seen.size >= REVERSE_STATE_CAP) continue;
        seen.add(id);
        next.push(moved);
        const score = displacement(board, moved.boxes, goals);
        if (score === 0 || score < bestScore) continue;
        // BFS visits levels in order, so a tie at a deeper level replaces the current best.
        if (score > bestScore || level > bestLevel) best = [];
        bestScore = score;
        bestLevel = level;
        best.push(moved);
      }
    }
    frontier = next;
  }
  return best.length === 0 ? null : rng.pick(best);
}

/** Distinct random cells from a list (partial Fisher-Yates on a copy). */
function pickDistinct(rng: Rng, cells: readonly number[], count: number): number[] {
  const pool = cells.slice();
  for (let i = 0; i < count; i++) {
    const j = i + rng.int(pool.length - i);
    [pool[i], pool[j]] = [pool[j]!, pool[i]!];
  }
  return pool.slice(0, count);
}

/** One attempt: a room, a placement, reverse play, verification. Null when the room is rejected,
 * "oversized" when its state graph is too large for the oracle. */
function attempt(rng: Rng, options: GeneratorOptions): GeneratedLevel | null | "oversized" {
  const { width, height, boxes } = options;
  const floor = carveRoom(rng, width, height);
  const floorCells: number[] = [];
  floor.forEach((line, row) => line.forEach((isFloor, column) => isFloor && floorCells.push(row * width + column)));
  if (floorCells.length < boxes + 2) return null;
  const picked = pickDistinct(rng, floorCells, boxes + 1);
  const goals = picked.slice(0, boxes).sort((a, b) => a - b);
  const solvedBoard = compileBoard({ rows: roomRows(floor, width, goals, goals, picked[boxes]!) });
  const placement = reversePlay(rng, solvedBoard, goals, options.searchDepth);
  if (placement === null) return null;
  const task = levelFromRows(roomRows(floor, width, goals, placement.boxes, placement.player), "generated level");
  const board = compileBoard(task);
  const oracle = tryBuildOracle(board, options.maxStates);
  if (oracle === null) return "oversized";
  if (!(oracle.startDistance > 0 && Number.isFinite(oracle.startDistance))) return null;
  return { task, board, oracle };
}

/** A solvable, not yet solved level from (options, seed). Throws DataError if the room size cannot hold one. */
export function generateLevel(options: GeneratorOptions, seed: number): GeneratedLevel {
  const rng = createRng(seed);
  let oversized = 0;
  for (let i = 0; i < MAX_ATTEMPTS; i++) {
    const level = attempt(rng, options);
    if (level === "oversized") {
      oversized += 1;
      if (oversized >= MAX_OVERSIZED) {
        throw new DataError(
          `sokoban: ${MAX_OVERSIZED} generated rooms in a row had more than ${options.maxStates} reachable states`,
          "raise the sokoban.maxStates option, or use a smaller room or fewer boxes",
        );
      }
    } else if (level !== null) {
      return level;
    } else {
      oversized = 0;
    }
  }
  throw new DataError(
    `sokoban: no solvable ${options.width}x${options.height} level with ${options.boxes} boxes found in ${MAX_ATTEMPTS} rooms (seed ${seed})`,
    "use a larger room, fewer boxes or a larger searchDepth",
  );
}
