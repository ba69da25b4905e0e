// The oracle answer of a deterministic env, from its shortest-path oracle, at any horizon.
//   value within t turns = 1 if remaining <= t, else 0        (unlimited horizon: 1 if remaining is finite)
//   optimal within t     = the shortest-path moves, at every t
// Why the set does not depend on t: when remaining <= t, the actions worth 1 are those that keep the goal
// reachable within t - 1 turns, and among them the fewest turns to success picks the shortest-path moves;
// when remaining > t every action is worth 0, and the same tie-break again picks the shortest-path moves.
// So sokoban, hanoi and dry frozenlake answer through the budget-aware interface with their old sets.
import type { OracleAnswer } from "../../core/oracle.js";
import { checkTurnsLeft } from "./turns-left.js";

/** Success within `turnsLeft` turns (undefined or Infinity: unlimited) of a state `remaining` turns from it. */
export function shortestPathValue(remaining: number, turnsLeft?: number): number {
  return Number.isFinite(remaining) && remaining <= checkTurnsLeft(turnsLeft) ? 1 : 0;
}

export function shortestPathAnswer(optimal: readonly string[], remaining: number, turnsLeft?: number): OracleAnswer {
  return { optimal, remaining, value: shortestPathValue(remaining, turnsLeft) };
}
