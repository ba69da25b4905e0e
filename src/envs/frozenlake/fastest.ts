// The unlimited-horizon optimal actions of frozenlake, fast: among the actions that maximise the success
// probability, those that minimise the expected number of turns to success.
//   Q(s,a)     = sum_o p(o) V(next(s,a,o))                          (V: the success probability, oracle.ts)
//   ties(s)    = { a : Q(s,a) >= max_b Q(s,b) * (1 - 1e-9) }       (relative: tiny values keep their order)
//   S(s)       = E[tau 1{success}] under value-optimal play (tau = turns to the goal), the least solution of
//                S(goal) = 0,  S(s) = 0 where V(s) = 0,  S(s) = V(s) + min_{a in ties(s)} sum_o p(o) S(next)
//   fastest(s) = { a in ties(s) : sum_o p(o) S(next) <= min * (1 + 1e-9) }       (exact ties stay ties)
// Why V(s) per turn: for a value-optimal policy V(X_k) is a martingale, so the sum of E[V(X_k); k < end] over
// k is sum_k P(k < tau < inf) = E[tau 1{success}]; a policy that keeps the value but never collects it (an
// endless wall bump) has S = infinity, so minimising S also picks a policy that really succeeds with V(s).
// With the success probability fixed at V(s), minimising S minimises the expected turns given success.
// Solved by Gauss-Seidel value iteration from S = 0: the iterates only grow (the update is monotone), so
// they reach a floating-point fixed point and stop there.
import { BudgetrlError } from "../../core/errors.js";
import { FROZEN, SLIP_OUTCOMES, type Lake } from "./rules.js";

/** Relative tolerance of both tie tests (values are accurate to about 1e-12, see oracle.ts). */
export const FASTEST_TIE_TOLERANCE = 1e-9;
const MAX_SWEEPS = 10_000_000;

export interface FastestActions {
  /** E[turns to success; success] under the fastest value-optimal play, per cell. */
  readonly turns: Float64Array;
  /** Bit d set when DIRECTIONS[d] is optimal (0 in terminal and dead cells). */
  readonly masks: Uint8Array;
}

/** Expected value of `table` after an action: the intended cell, or the three slip outcomes at 1/3 each. */
export function expectAfter(
  lake: Lake,
  table: Float64Array,
  cell: number,
  direction: number,
  slippery: boolean,
): number {
  if (!slippery) return table[lake.next[cell * 4 + direction]!]!;
  const [a, b, c] = SLIP_OUTCOMES[direction]!;
  return (table[lake.next[cell * 4 + a]!]! + table[lake.next[cell * 4 + b]!]! + table[lake.next[cell * 4 + c]!]!) / 3;
}

/** Mask of the actions within the relative tolerance of the best value after them. */
function valueTies(lake: Lake, value: Float64Array, cell: number, slippery: boolean): number {
  const q = [0, 1, 2, 3].map((direction) => expectAfter(lake, value, cell, direction, slippery));
  const floor = Math.max(...q) * (1 - FASTEST_TIE_TOLERANCE);
  return q.reduce((mask, v, direction) => (v >= floor ? mask | (1 << direction) : mask), 0);
}

/** The smallest expected `turns` after an action of `mask` (the inner loop: no allocation). */
function bestAfter(lake: Lake, turns: Float64Array, cell: number, mask: number, slippery: boolean): number {
  let best = Infinity;
  for (let direction = 0; direction < 4; direction++) {
    if ((mask & (1 << direction)) !== 0) best = Math.min(best, expectAfter(lake, turns, cell, direction, slippery));
  }
  return best;
}

/** The actions of `mask` whose expected `turns` after them is within the relative tolerance of the smallest. */
function fastestMask(lake: Lake, turns: Float64Array, cell: number, mask: number, slippery: boolean): number {
  const ceiling = bestAfter(lake, turns, cell, mask, slippery) * (1 + FASTEST_TIE_TOLERANCE);
  let chosen = 0;
  for (let direction = 0; direction < 4; direction++) {
    if ((mask & (1 << direction)) !== 0 && expectAfter(lake, turns, cell, direction, slippery) <= ceiling)
      chosen |= 1 << direction;
  }
  return chosen;
}

export function fastestActions(lake: Lake, value: Float64Array, slippery: boolean): FastestActions {
  const cells = value.length;
  const ties = new Uint8Array(cells);
  const live: number[] = [];
  for (let cell = 0; cell < cells; cell++) {
    if (lake.kind[cell] !== FROZEN || !(value[cell]! > 0)) continue;
    ties[cell] = valueTies(lake, value, cell, slippery);
    live.push(cell);
  }
  const turns = new Float64Array(cells);
  for (let sweep = 0; ; sweep++) {
    if (sweep === MAX_SWEEPS)
      throw new BudgetrlError("frozenlake:oracle", `expected turns to success did not settle in ${MAX_SWEEPS} sweeps`);
    let changed = false;
    for (const cell of live) {
      const next = value[cell]! + bestAfter(lake, turns, cell, ties[cell]!, slippery);
      if (next !== turns[cell]) {
        turns[cell] = next;
        changed = true;
      }
    }
    if (!changed) break;
  }
  const masks = new Uint8Array(cells);
  for (const cell of live) masks[cell] = fastestMask(lake, turns, cell, ties[cell]!, slippery);
  return { turns, masks };
}
