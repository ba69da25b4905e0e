// The ground truth as an oracle for step-quality analyses. Within the current user turn, the ground-truth
// calls already made are the longest prefix of the turn's ground truth found, in order, among the calls the
// model ran this turn (compared in canonical form); the optimal next action is the rest of them as one
// response `[f(a=1), g()]`, or `[]` (answer without calls, ending the turn) once none are left. Remaining steps
// to finish the entry that way: this turn's (1 response with the calls if any are left, plus 1 closing answer)
// plus, for every later turn, 2 (calls, then closing) or 1 (closing only, when its ground truth is empty).
// The oracle does not see whether earlier calls already spoiled the state; that shows at the turn's check.
// Within t turns left (budget-aware interface) the optimal move is the same at every t (a shortest path), and
// the value is 1 when the rest of the entry fits in t steps: exact for an episode budget; for a per-user-turn
// budget (which restarts at each user turn) it is a lower bound.
import type { OracleAnswer } from "../../../core/oracle.js";
import { shortestPathAnswer } from "../../shared/shortest-path-answer.js";
import type { Call } from "../calls/call.js";
import { formatCall, formatCalls } from "../calls/format.js";
import { canonicalCall } from "./canonical.js";
import type { BfclState } from "./inference-loop.js";

/** Canonical text of the answer that ends a turn without calls. */
export const END_TURN_ACTION = "[]";

/** Ground-truth calls of the current turn still to be made. */
export function remainingTruthCalls(state: BfclState): Call[] {
  const truth = (state.entry.groundTruth[state.turn] ?? []).map(({ call }) => canonicalCall(call, state.classes));
  const made = state.turnSteps.flat().map((call) => formatCall(canonicalCall(call, state.classes)));
  let position = 0;
  let done = 0;
  for (const call of truth) {
    const index = made.indexOf(formatCall(call), position);
    if (index < 0) break;
    position = index + 1;
    done += 1;
  }
  return truth.slice(done);
}

function laterTurnSteps(state: BfclState): number {
  let steps = 0;
  for (let turn = state.turn + 1; turn < state.entry.groundTruth.length; turn++)
    steps += (state.entry.groundTruth[turn] as readonly unknown[]).length > 0 ? 2 : 1;
  return steps;
}

export function bfclOracle(state: BfclState, turnsLeft?: number): OracleAnswer {
  if (state.outcome !== null) return shortestPathAnswer([], state.outcome === "success" ? 0 : Infinity, turnsLeft);
  const left = remainingTruthCalls(state);
  const optimal = left.length > 0 ? formatCalls(left) : END_TURN_ACTION;
  return shortestPathAnswer([optimal], (left.length > 0 ? 2 : 1) + laterTurnSteps(state), turnsLeft);
}
