// SFT targets of a demonstration whose budget the policy cannot see (hidden mode): the replies that are the Bayes
// move of a budget-blind policy. A hidden-mode demonstration at budget T_k shows the move optimal within T_k's
// turns left, but the policy only sees the history, not T_k; imitating every budget's move teaches it to sample
// the budgets' conflicting moves in proportion. The Bayes move is the one optimal under the most posterior
// mass of the demonstration budgets:
//   w_k(h)       = P(T_k) L_k(h) / T_k        for the budgets T_k not yet spent (T_k > turns used), prior uniform;
//   L_k(h)       = prod over past turns i of (1 - eps) o_k(a_i | s_i) + eps r(a_i | s_i)
//                  o_k: uniform over the oracle's optimal set within T_k - i turns left (over the valid actions
//                  where it is empty), r: uniform over the valid actions: the noisy-oracle:eps demonstrator's
//                  likelihood of the history under T_k (the env's transition probabilities are the same under
//                  every budget and cancel);
//   score(a)     = sum over k of w_k(h) [a in optimal set within T_k - t];
//   target       = the demonstrated move when its score is the highest (ties: every tied move).
// The 1/T_k weight stands for 1 / (the turns of an episode at T_k): step quality averages each budget's turns, so
// one turn of a short episode weighs more. On thin ice this rule reaches the exact hidden-budget ceiling
// (src/envs/thinice/hidden-ceiling.ts, the Bayes policy of the observation view) within 1.5 points at every study
// budget (test/rl/hidden-budget-targets.test.ts, sampled episodes on 40 held-out maps). A history no budget explains (a demonstrator other than a noisy oracle of these budgets) weighs every
// budget left alike. The turns used come from the turns' segments as the rollout counts them (the turn clock, replayed).
// The episode is replayed from its seed; a replayed state that differs from the recorded one
// (another env version) is refused.
import { clocksBeforeTurns } from "../core/turn-clock.js";
import type { BudgetScope } from "../core/budget.js";
import { requireOracle, type AnyEnv } from "../core/env.js";
import type { Episode } from "../core/episode.js";
import { DataError } from "../core/errors.js";

const RELATIVE_TIE = 1e-9;

/** The demonstrator's likelihood of playing `action` where the oracle's optimal set is `optimal`. */
function moveLikelihood(action: string | null, optimal: readonly string[], valid: readonly string[], epsilon: number) {
  const random = action !== null && valid.includes(action) ? 1 / valid.length : 0;
  const oracle = optimal.length === 0 ? random : action !== null && optimal.includes(action) ? 1 / optimal.length : 0;
  return (1 - epsilon) * oracle + epsilon * random;
}

/** Per turn of one hidden-mode demonstration (by position): the budget-blind Bayes moves there (the tied best).
 * `budgets` are the task's demonstration budgets in turns; `epsilon` the demonstrator's noise. */
export function bayesMoves(
  env: AnyEnv,
  task: unknown,
  episode: Pick<Episode, "turns" | "seed" | "taskId" | "sample" | "budget">,
  budgets: readonly number[],
  epsilon: number,
  scope: BudgetScope = "episode",
): string[][] {
  const oracle = requireOracle(env);
  let state = env.reset(task, { seed: episode.seed }).state;
  const logLikelihood = budgets.map(() => 0);
  const moves: string[][] = [];
  const clocks = clocksBeforeTurns(
    { turns: Infinity, scope },
    episode.turns.map((turn) => turn.segment),
  );
  for (const [index, turn] of episode.turns.entries()) {
    const used = clocks[index]!.used;
    if (env.actions.stateKey(state) !== turn.stateKey)
      throw new DataError(
        `demonstration of task ${episode.taskId} (sample ${episode.sample}, budget ${episode.budget.label}) does not replay: turn ${turn.index} was recorded in another state`,
        "the demonstrations were made by another version of the env: make them again",
      );
    const optimal = budgets.map((turns) => (turns > used ? oracle.answer(state, turns - used).optimal : null));
    const top = Math.max(...logLikelihood.filter((_, k) => optimal[k] !== null));
    const score = new Map<string, number>();
    optimal.forEach((set, k) => {
      if (set === null) return;
      const weight = (Number.isFinite(top) ? Math.exp(logLikelihood[k]! - top) : 1) / budgets[k]!;
      for (const action of set) score.set(action, (score.get(action) ?? 0) + weight);
    });
    const best = Math.max(0, ...score.values());
    moves.push(
      best > 0 ? [...score].filter(([, value]) => value >= best * (1 - RELATIVE_TIE)).map(([move]) => move) : [],
    );
    const valid = env.actions.valid(state);
    optimal.forEach((set, k) => {
      logLikelihood[k] =
        set === null ? -Infinity : logLikelihood[k]! + Math.log(moveLikelihood(turn.parsedAction, set, valid, epsilon));
    });
    state = env.step(state, turn.action).state;
  }
  return moves;
}

/** Per turn of one hidden-mode demonstration (by position): whether its reply is a Bayes move there. */
export function hiddenBudgetTargets(...args: Parameters<typeof bayesMoves>): boolean[] {
  const [, , episode] = args;
  return bayesMoves(...args).map((moves, position) => {
    const played = episode.turns[position]?.parsedAction ?? null;
    return played !== null && moves.includes(played);
  });
}
