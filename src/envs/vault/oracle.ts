// The vault oracle: the task's MDP (mdp.ts) solved exactly at every horizon (shared/finite-mdp.ts), answered
// per state by shared/mdp-answers.ts with the actions' texts. Within t turns left, optimal = the actions that
// maximise the success probability within t, then the fewest expected turns; value = that probability;
// remaining = the locks still to open (guessing every one), whatever t is. Concretely, at an unchecked
// uncertain hint with s = t - (locks to go) spare turns and u uncertain locks to go (this one included): check
// when s >= u, enter the hint when s = 0, either when 0 < s < u (checking now or a later lock gives the same
// success, p^(u - s), in the same number of turns); at a known code: that code. With an unlimited horizon (and
// when nothing can succeed in time) every hint is checked first, which succeeds surely.
import { actionsOfMask } from "../shared/finite-mdp.js";
import { mdpAnswers, type MdpAnswers } from "../shared/mdp-answers.js";
import { buildVaultMdp } from "./mdp.js";
import { ACTION_TEXTS } from "./rules.js";
import type { VaultTask } from "./tasks.js";

export type VaultOracle = MdpAnswers;

/** The canonical texts of an action mask. */
export function actionTexts(mask: number): string[] {
  return actionsOfMask(mask).map((action) => ACTION_TEXTS[action]!);
}

export function buildVaultOracle(task: VaultTask, reliability: number): VaultOracle {
  return mdpAnswers(buildVaultMdp(task, reliability), actionTexts);
}
