// The one place where budget text is written, so that every env and every policy sees the same wording for
// the same mode. The rollout engine appends it to the last observation message before each turn.
//   announced, episode scope:    "Turn 3 of 8: 6 turns left."
//   announced, user-turn scope:  "Step 3 of 5 for this request: 3 steps left."
//   remaining:                   "6 turns left." / "3 steps left for this request."
//   hidden:                      no text at all (the episode is simply cut at T).
import type { Budget } from "../core/budget.js";

/** Budget text before turn `turn` (1-based within the budget's scope), or null in hidden mode. */
export function budgetNote(budget: Budget, turn: number): string | null {
  if (budget.mode === "hidden") return null;
  const left = Math.max(0, budget.turns - turn + 1);
  const perRequest = budget.scope === "user-turn";
  const unit = perRequest ? "step" : "turn";
  const leftText = `${left} ${unit}${left === 1 ? "" : "s"} left`;
  if (budget.mode === "remaining") return perRequest ? `${leftText} for this request.` : `${leftText}.`;
  const position = `${perRequest ? "Step" : "Turn"} ${turn} of ${budget.turns}`;
  return perRequest ? `${position} for this request: ${leftText}.` : `${position}: ${leftText}.`;
}
