// FrozenLake rules (as Gymnasium's FrozenLake-v1): the player moves one cell per turn; moving off the edge
// leaves it in place; stepping on a hole (H) ends the episode in failure, on a goal (G) in success.
// Slippery ice: the player moves in the intended direction with probability 1/3 and in each perpendicular
// direction with probability 1/3. Reward: 1 on reaching a goal, 0 otherwise.
import { COLUMN_DELTA, ROW_DELTA } from "../shared/directions.js";
import type { FrozenLakeTask } from "./maps.js";

export const REWARD_GOAL = 1;

export const FROZEN = 0;
export const HOLE = 1;
export const GOAL = 2;

export interface Lake {
  readonly width: number;
  readonly height: number;
  readonly start: number;
  /** Cell reached from cell c moving in direction d, at index 4c+d (c itself at the edge). */
  readonly next: Int32Array;
  /** FROZEN (also the start), HOLE or GOAL per cell. */
  readonly kind: Uint8Array;
}

export function compileLake(task: FrozenLakeTask): Lake {
  const height = task.rows.length;
  const width = task.rows[0]!.length;
  const kind = new Uint8Array(width * height);
  const next = new Int32Array(width * height * 4);
  let start = 0;
  for (let row = 0; row < height; row++) {
    for (let column = 0; column < width; column++) {
      const cell = row * width + column;
      const char = task.rows[row]![column];
      kind[cell] = char === "H" ? HOLE : char === "G" ? GOAL : FROZEN;
      if (char === "S") start = cell;
      for (let direction = 0; direction < 4; direction++) {
        const r = row + ROW_DELTA[direction]!;
        const c = column + COLUMN_DELTA[direction]!;
        next[cell * 4 + direction] = r < 0 || r >= height || c < 0 || c >= width ? cell : r * width + c;
      }
    }
  }
  return { width, height, start, next, kind };
}

/** Directions actually taken for an intended one: [intended, first perpendicular, second perpendicular]. */
export const SLIP_OUTCOMES: readonly (readonly [number, number, number])[] = [
  [0, 2, 3],
  [1, 2, 3],
  [2, 0, 1],
  [3, 0, 1],
];

export function isTerminal(lake: Lake, cell: number): boolean {
  return lake.kind[cell] !== FROZEN;
}
