// The two route lengths that make a thin ice map a budget trade-off, by breadth-first search from the start:
//   short = the fewest moves to a goal (thin ice allowed): the optimal length, what budgets multiply;
//   safe  = the fewest moves to a goal never stepping onto thin ice (Infinity when there is none).
// A map has the trade-off the generator wants when short < safe (every shortest route crosses thin ice) and
// MIN_DETOUR <= safe / short <= MAX_DETOUR: then at 1.25x the optimal length only the short route fits
// (ceil(1.25 short) < safe for every short >= 2 at ratio 1.6) and at 3x the safe one does.
import { GOAL, ICE, THIN, type Ice } from "./rules.js";

/** Smallest and largest safe / short ratio of a generated map, as exact fractions [numerator, denominator]. */
export const MIN_DETOUR: readonly [number, number] = [8, 5];
export const MAX_DETOUR: readonly [number, number] = [5, 2];

/** Fewest moves from the start to a goal through cells `allowed` admits (Infinity: none). */
function fewestMoves(ice: Ice, allowed: (kind: number) => boolean): number {
  const distance = new Int32Array(ice.kind.length).fill(-1);
  distance[ice.start] = 0;
  const queue = [ice.start];
  for (let head = 0; head < queue.length; head++) {
    const cell = queue[head]!;
    if (ice.kind[cell] === GOAL) return distance[cell]!;
    for (let direction = 0; direction < 4; direction++) {
      const to = ice.next[cell * 4 + direction]!;
      if (distance[to]! >= 0 || !allowed(ice.kind[to]!)) continue;
      distance[to] = distance[cell]! + 1;
      queue.push(to);
    }
  }
  return Infinity;
}

export interface RouteLengths {
  readonly short: number;
  readonly safe: number;
}

export function routeLengths(ice: Ice): RouteLengths {
  return {
    short: fewestMoves(ice, (kind) => kind === ICE || kind === THIN || kind === GOAL),
    safe: fewestMoves(ice, (kind) => kind === ICE || kind === GOAL),
  };
}

/** Whether safe / short lies within [MIN_DETOUR, MAX_DETOUR] (so short < safe: the short route is risky). */
export function hasTradeoff({ short, safe }: RouteLengths): boolean {
  if (!(Number.isFinite(short) && Number.isFinite(safe) && short > 0)) return false;
  return safe * MIN_DETOUR[1] >= short * MIN_DETOUR[0] && safe * MAX_DETOUR[1] <= short * MAX_DETOUR[0];
}
