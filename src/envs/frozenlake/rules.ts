// FrozenLake rules (as Gymnasium's FrozenLake-v1): the player moves one cell per turn; moving off the edge
// leaves it in place; stepping on a hole (H) ends the episode in failure, on a goal (G) in success.
// Slippery ice: the player moves in the intended direction with probability 1/3 and in each perpendicular
// direction with probability 1/3. Reward: 1 on reaching a goal, 0 otherwise.
import { compileGridMoves, type GridMoves } from "../shared/grid-moves.js";
import type { FrozenLakeTask } from "./maps.js";

export const REWARD_GOAL = 1;

export const FROZEN = 0;
export const HOLE = 1;
export const GOAL = 2;

/** The lake's cells and moves; kind per cell: FROZEN (also the start), HOLE or GOAL. */
export type Lake = GridMoves;

function kindOf(char: string): number {
  if (char === "H") return HOLE;
  if (char === "G") return GOAL;
  return FROZEN;
}

export function compileLake(task: FrozenLakeTask): Lake {
  return compileGridMoves(task.rows, kindOf);
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
