// The vault oracle: the task's MDP (mdp.ts) solved exactly at every horizon (shared/finite-mdp.ts), answered
// per state. Within t turns left, optimal = the actions that maximise the success probability within t, then
// the fewest expected turns; value = that probability; remaining = the locks still to open (guessing every
// one), whatever t is. Concretely, at an unchecked uncertain hint with s = t - (locks to go) spare turns and
// u uncertain locks to go (this one included): check when s >= u, enter the hint when s = 0, either when
// 0 < s < u (checking now or a later lock gives the same success, p^(u - s), in the same number of turns);
// at a known code: that code. With an unlimited horizon (and when nothing can succeed in time) every hint is
// checked first, which succeeds surely.
import type { OracleAnswer } from "../../core/env.js";
import { actionsOfMask, solveMdp, type MdpSolution } from "../shared/finite-mdp.js";
import { checkTurnsLeft } from "../shared/turns-left.js";
import { buildVaultMdp } from "./mdp.js";
import { ACTION_TEXTS } from "./rules.js";
import type { VaultTask } from "./tasks.js";

export interface VaultOracle {
  readonly solution: MdpSolution;
  /** The answer in MDP state `state` within `turnsLeft` turns (undefined or Infinity: unlimited horizon). */
  answer(state: number, turnsLeft?: number): OracleAnswer;
  /** Success probability within `turnsLeft` turns under optimal play (undefined or Infinity: unlimited). */
  value(state: number, turnsLeft?: number): number;
}

/** The canonical texts of an action mask. */
export function actionTexts(mask: number): string[] {
  return actionsOfMask(mask).map((action) => ACTION_TEXTS[action]!);
}

export function buildVaultOracle(task: VaultTask, reliability: number): VaultOracle {
  const solution = solveMdp(buildVaultMdp(task, reliability));
  const value = (state: number, turnsLeft?: number): number => solution.layer(checkTurnsLeft(turnsLeft)).values[state]!;
  return {
    solution,
    answer(state, turnsLeft) {
      const layer = solution.layer(checkTurnsLeft(turnsLeft));
      return { optimal: actionTexts(layer.masks[state]!), remaining: solution.remaining[state]!, value: layer.values[state]! };
    },
    value,
  };
}
