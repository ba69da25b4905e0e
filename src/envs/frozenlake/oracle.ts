// The frozenlake oracle with an unlimited horizon, computed once per (map, slipperiness):
//   value(s)     = success probability under optimal play, by value iteration from 0 (goal 1, hole 0)
//                  until no value changes by more than 1e-14 in a Gauss-Seidel sweep (values are then
//                  accurate to about 1e-12; Gymnasium's slippery 4x4 map gives 14/17 = 0.8235...);
//   remaining(s) = the fewest turns after which success has positive probability: the shortest path to a
//                  goal avoiding holes (with slippery ice every direction is a possible outcome of some
//                  action, so this is the same number as on dry ice); Infinity when no goal is reachable;
//   shortestPathActions(s) = the actions whose expected value is within 1e-9 of value(s) and, among them,
//                  those with a possible outcome on a shortest path (all of them if none has one); empty in
//                  terminal and dead states. On dry ice these are exactly the optimal moves at every horizon;
//                  on slippery ice they can linger (wall bumps that keep the value but waste turns), so there
//                  the env answers with fastest.ts (unlimited horizon) and horizon.ts (within the turns left).
// Without slipping, value is 1 or 0, the optimal actions are exactly the shortest-path moves, and following
// any of them reaches the goal in exactly `remaining` turns.
import { BudgetrlError } from "../../core/errors.js";
import { DIRECTIONS } from "../shared/directions.js";
import { FROZEN, GOAL, HOLE, SLIP_OUTCOMES, type Lake } from "./rules.js";

export const VALUE_TOLERANCE = 1e-14;
const TIE_TOLERANCE = 1e-9;
const MAX_SWEEPS = 1_000_000;

export interface FrozenLakeOracle {
  readonly value: Float64Array;
  /** Shortest number of turns to a goal (Infinity where none is reachable). */
  readonly remaining: Float64Array;
  readonly shortestPathActions: readonly (readonly string[])[];
}

/** Expected value of an action: intended move only, or the three slip outcomes at 1/3 each. */
export function actionValue(
  lake: Lake,
  value: Float64Array,
  cell: number,
  direction: number,
  slippery: boolean,
): number {
  if (!slippery) return value[lake.next[cell * 4 + direction]!]!;
  const [a, b, c] = SLIP_OUTCOMES[direction]!;
  return (value[lake.next[cell * 4 + a]!]! + value[lake.next[cell * 4 + b]!]! + value[lake.next[cell * 4 + c]!]!) / 3;
}

function valueIteration(lake: Lake, slippery: boolean): Float64Array {
  const value = new Float64Array(lake.kind.length);
  for (let cell = 0; cell < value.length; cell++) if (lake.kind[cell] === GOAL) value[cell] = 1;
  for (let sweep = 0; sweep < MAX_SWEEPS; sweep++) {
    let change = 0;
    for (let cell = 0; cell < value.length; cell++) {
      if (lake.kind[cell] !== FROZEN) continue;
      let best = 0;
      for (let direction = 0; direction < 4; direction++)
        best = Math.max(best, actionValue(lake, value, cell, direction, slippery));
      change = Math.max(change, Math.abs(best - value[cell]!));
      value[cell] = best;
    }
    if (change <= VALUE_TOLERANCE) return value;
  }
  throw new BudgetrlError("frozenlake:oracle", `value iteration did not converge in ${MAX_SWEEPS} sweeps`);
}

/** Turns to the nearest goal through non-hole cells (BFS from the goals over reversed moves). */
function shortestTurns(lake: Lake): Float64Array {
  const count = lake.kind.length;
  const turns = new Float64Array(count).fill(Infinity);
  const queue: number[] = [];
  for (let cell = 0; cell < count; cell++) {
    if (lake.kind[cell] === GOAL) {
      turns[cell] = 0;
      queue.push(cell);
    }
  }
  for (let head = 0; head < queue.length; head++) {
    const cell = queue[head]!;
    for (let direction = 0; direction < 4; direction++) {
      // Moves are symmetric away from the edge: the cell one step away in `direction` can step back.
      const previous = lake.next[cell * 4 + direction]!;
      if (previous === cell || lake.kind[previous] !== FROZEN || turns[previous] !== Infinity) continue;
      turns[previous] = turns[cell]! + 1;
      queue.push(previous);
    }
  }
  return turns;
}

function shortestPathActionsOf(
  lake: Lake,
  value: Float64Array,
  turns: Float64Array,
  cell: number,
  slippery: boolean,
): readonly string[] {
  if (lake.kind[cell] === HOLE || lake.kind[cell] === GOAL || turns[cell] === Infinity) return [];
  const best = DIRECTIONS.filter(
    (_, direction) => actionValue(lake, value, cell, direction, slippery) >= value[cell]! - TIE_TOLERANCE,
  );
  const onShortestPath = best.filter((name) => {
    const direction = DIRECTIONS.indexOf(name);
    const outcomes = slippery ? SLIP_OUTCOMES[direction]! : [direction];
    return outcomes.some((taken) => turns[lake.next[cell * 4 + taken]!] === turns[cell]! - 1);
  });
  return Object.freeze(onShortestPath.length > 0 ? onShortestPath : best);
}

export function buildOracle(lake: Lake, slippery: boolean): FrozenLakeOracle {
  const value = valueIteration(lake, slippery);
  const remaining = shortestTurns(lake);
  const shortestPathActions = Array.from({ length: value.length }, (_, cell) =>
    shortestPathActionsOf(lake, value, remaining, cell, slippery),
  );
  return { value, remaining, shortestPathActions };
}
