// The horizon argument of env oracles: a number of turns left (an integer >= 0), or an unlimited horizon
// (undefined or Infinity). Anything else is a programmer error.
import { BudgetrlError } from "../../core/errors.js";

/** The horizon as a number (Infinity when unlimited); throws on a negative, fractional or NaN horizon. */
export function checkTurnsLeft(turnsLeft: number | undefined): number {
  if (turnsLeft === undefined || turnsLeft === Infinity) return Infinity;
  if (!(Number.isInteger(turnsLeft) && turnsLeft >= 0)) {
    throw new BudgetrlError(
      "oracle:turns-left",
      `turnsLeft must be an integer >= 0 or Infinity, got ${turnsLeft}`,
      "pass the turns left in the budget, or nothing for an unlimited horizon",
    );
  }
  return turnsLeft;
}
