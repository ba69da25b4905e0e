// A thin ice map as an explicit finite MDP (shared/finite-mdp.ts): one state per cell plus one for the
// player in the water (FAILURE); goal cells are SUCCESS. Actions are the four directions (ids as
// DIRECTIONS). A move onto thin ice from another cell reaches it with probability 1 - q and the water with q;
// every other move (a bump included) reaches its cell with probability 1. Rock cells are never occupied:
// their actions are unavailable.
import { buildMdp, FAILURE, LIVE, SUCCESS, type FiniteMdp } from "../shared/finite-mdp.js";
import { GOAL, ROCK, stepsOntoThinIce, type Ice } from "./rules.js";

/** The MDP state of a player in the water: one past the last cell. */
export function fallenState(ice: Ice): number {
  return ice.kind.length;
}

export function buildIceMdp(ice: Ice, q: number): FiniteMdp {
  const fallen = fallenState(ice);
  const end = (state: number): number => (state === fallen ? FAILURE : ice.kind[state] === GOAL ? SUCCESS : LIVE);
  return buildMdp(fallen + 1, 4, end, (cell, direction) => {
    if (ice.kind[cell] === ROCK) return null;
    const to = ice.next[cell * 4 + direction]!;
    return stepsOntoThinIce(ice, cell, to)
      ? [
          [to, 1 - q],
          [fallen, q],
        ]
      : [[to, 1]];
  });
}
