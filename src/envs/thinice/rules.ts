// Thin ice rules: the player moves one cell per turn (Up, Down, Left, Right); walking into a rock (#) or off
// the map leaves it in place (the turn is spent). Stepping onto thin ice (~) from another cell breaks it with
// probability q: the player falls in and the episode ends in failure; otherwise the player stands on it (and
// risks it again on every later step onto thin ice). Reaching a goal (G) ends the episode in success.
// Standing still (a bump) is not a step onto the ice, so it risks nothing. Reward: 1 on a goal, else 0.
import { COLUMN_DELTA, ROW_DELTA } from "../shared/directions.js";
import type { ThinIceTask } from "./maps.js";

export const REWARD_GOAL = 1;

export const ICE = 0;
export const THIN = 1;
export const ROCK = 2;
export const GOAL = 3;

export interface Ice {
  readonly width: number;
  readonly height: number;
  readonly start: number;
  /** Cell reached from cell c moving in direction d, at index 4c+d (c itself at the edge or before a rock). */
  readonly next: Int32Array;
  /** ICE (also the start), THIN, ROCK or GOAL per cell. */
  readonly kind: Uint8Array;
}

function kindOf(char: string): number {
  if (char === "~") return THIN;
  if (char === "#") return ROCK;
  if (char === "G") return GOAL;
  return ICE;
}

export function compileIce(task: ThinIceTask): Ice {
  const height = task.rows.length;
  const width = task.rows[0]!.length;
  const kind = new Uint8Array(width * height);
  const next = new Int32Array(width * height * 4);
  let start = 0;
  task.rows.forEach((row, r) => {
    for (let column = 0; column < width; column++) {
      kind[r * width + column] = kindOf(row[column]!);
      if (row[column] === "S") start = r * width + column;
    }
  });
  for (let cell = 0; cell < kind.length; cell++) {
    const row = Math.floor(cell / width);
    const column = cell % width;
    for (let direction = 0; direction < 4; direction++) {
      const r = row + ROW_DELTA[direction]!;
      const c = column + COLUMN_DELTA[direction]!;
      const inside = r >= 0 && r < height && c >= 0 && c < width;
      next[cell * 4 + direction] = inside && kind[r * width + c] !== ROCK ? r * width + c : cell;
    }
  }
  return { width, height, start, next, kind };
}

/** Whether moving from `cell` to `to` is a step onto thin ice (a bump is not). */
export function stepsOntoThinIce(ice: Ice, cell: number, to: number): boolean {
  return to !== cell && ice.kind[to] === THIN;
}
