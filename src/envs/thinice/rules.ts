// Thin ice rules: the player moves one cell per turn (Up, Down, Left, Right); walking into a rock (#) or off
// the map leaves it in place (the turn is spent). Stepping onto thin ice (~) from another cell breaks it with
// probability q: the player falls in and the episode ends in failure; otherwise the player stands on it (and
// risks it again on every later step onto thin ice). Reaching a goal (G) ends the episode in success.
// Standing still (a bump) is not a step onto the ice, so it risks nothing. Reward: 1 on a goal, else 0.
import { compileGridMoves, type GridMoves } from "../shared/grid-moves.js";
import type { ThinIceTask } from "./maps.js";

export const REWARD_GOAL = 1;

export const ICE = 0;
export const THIN = 1;
export const ROCK = 2;
export const GOAL = 3;

/** The map's cells and moves (a rock blocks: moving into it leaves the player in place); kind per cell: ICE
 * (also the start), THIN, ROCK or GOAL. */
export type Ice = GridMoves;

function kindOf(char: string): number {
  if (char === "~") return THIN;
  if (char === "#") return ROCK;
  if (char === "G") return GOAL;
  return ICE;
}

export function compileIce(task: ThinIceTask): Ice {
  return compileGridMoves(task.rows, kindOf, (kind) => kind === ROCK);
}

/** Whether moving from `cell` to `to` is a step onto thin ice (a bump is not). */
export function stepsOntoThinIce(ice: Ice, cell: number, to: number): boolean {
  return to !== cell && ice.kind[to] === THIN;
}
