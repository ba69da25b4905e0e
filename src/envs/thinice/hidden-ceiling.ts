// The ceiling of teacher-forced step quality under hidden budgets: how often the best policy that sees only what a
// hidden-mode observation shows can play a move in the budget-aware oracle's optimal set, on the oracle's states.
// For each map and study budget T_j (tradeoff.ts), the oracle's episodes are followed by decisions.ts's followOracle
// (uniform among optimal actions, breaks included), each visit keyed by what the policy sees there:
//   map            the map with P alone (the cell);
//   observation    the map with P (the cell) and the feedback line of the move that led there (its direction and
//                  whether it was blocked, moved or held on thin ice; none at the first turn): a hidden-mode
//                  observation, no turn number, no turns left;
//   withTurn       the same and the turns used (a policy that counts the turns of its history).
// With w_j(o, a) = the expected visits of o at T_j whose optimal set holds a, and W_j = the expected turns at T_j,
//   quality_j(policy) = sum over o of w_j(o, policy(o)) / W_j      (the task's step quality at T_j, as the study
//                                                                   pools a task's turns)
// The policy sees the map (so it knows the task) and holds a prior uniform over the four budgets; the Bayes policy
// plays at each o an action maximising sum_j w_j(o, a) / W_j: the posterior mass of the budgets under which a is
// optimal (the likelihood of o under T_j being its share of T_j's turns), i.e. the best mean over the four budgets.
// Ties between actions of equal mass are broken towards the tightest budget (tieBreak "tight") or the loosest
// ("loose"): the range of the per-budget figures among Bayes policies. alone[j] = the best quality at T_j of any
// policy with the same view tuned to T_j alone (100% unless one observation needs different moves at T_j).
// maxMinCeiling: the best quality any such policy can guarantee at all four budgets at once. Each figure is a mean
// over maps (every task weighs the same, as step quality averages tasks). scripts/thinice-hidden-ceiling.ts prints
// them on the study's held-out tasks; test/envs/thinice/hidden-ceiling.test.ts pins them.
import { actionsOfMask, solveMdp, type MdpSolution } from "../shared/finite-mdp.js";
import { followOracle, type OracleVisit } from "./decisions.js";
import type { ThinIceTask } from "./maps.js";
import { buildIceMdp } from "./mdp.js";
import { compileIce, THIN } from "./rules.js";
import { studyBudgets } from "./tradeoff.js";

export type CeilingView = "map" | "observation" | "withTurn";
export type TieBreak = "tight" | "loose";

export interface HiddenCeiling {
  readonly tasks: number;
  /** Step quality per study budget of the one Bayes policy (probability units). */
  readonly bayes: readonly number[];
  /** Its mean over the four budgets. */
  readonly bayesMean: number;
  /** Per budget, the best step quality of a policy with the same view tuned to that budget alone. */
  readonly alone: readonly number[];
}

const FEEDBACK_CODES = 1 + 4 * 3;

/** Per observation key, per action: the expected visits at which the action is optimal; and the expected turns. */
function budgetVisits(
  solution: MdpSolution,
  start: number,
  turns: number,
  view: CeilingView,
  isThin: (cell: number) => boolean,
): { readonly optimal: Map<number, Float64Array>; readonly total: number } {
  const { mdp } = solution;
  const optimal = new Map<number, Float64Array>();
  let total = 0;
  // Feedback label: 0 at the start, else 1 + 3 x direction + (blocked 0, moved 1, held 2).
  const feedback = (state: number, action: number, next: number): number =>
    1 + 3 * action + (next === state ? 0 : isThin(next) ? 2 : 1);
  const visit = ({ state, label, used, weight, mask }: OracleVisit): void => {
    const pair = state * FEEDBACK_CODES + label;
    const key = view === "map" ? state : view === "withTurn" ? used * mdp.states * FEEDBACK_CODES + pair : pair;
    const row = optimal.get(key) ?? new Float64Array(mdp.actions);
    optimal.set(key, row);
    total += weight;
    for (const action of actionsOfMask(mask)) row[action] = row[action]! + weight;
  };
  followOracle(solution, start, turns, visit, FEEDBACK_CODES, feedback);
  return { optimal, total };
}

/** Per observation of one map, per action a and budget j: the share of T_j's turns that show it with a optimal
 * (w_j(o, a) / W_j), as `shares[4 * a + j]`. */
export function observationShares(map: ThinIceTask, q: number, view: CeilingView = "observation"): Float64Array[] {
  const ice = compileIce(map);
  const solution = solveMdp(buildIceMdp(ice, q));
  const isThin = (cell: number): boolean => ice.kind[cell] === THIN;
  const budgets = studyBudgets(solution.remaining[ice.start]!);
  const perBudget = budgets.map((turns) => budgetVisits(solution, ice.start, turns, view, isThin));
  const table = new Map<number, Float64Array>();
  perBudget.forEach(({ optimal, total }, j) => {
    for (const [key, row] of optimal) {
      const shares = table.get(key) ?? new Float64Array(4 * solution.mdp.actions);
      table.set(key, shares);
      row.forEach((weight, action) => (shares[4 * action + j] = weight / total));
    }
  });
  return [...table.values()];
}

/** The action of best weighted share at one observation; ties towards the budgets first in `order`. */
function bestAction(shares: Float64Array, weights: readonly number[], order: readonly number[]): number {
  let best = 0;
  let bestScore = -Infinity;
  for (let action = 0; 4 * action < shares.length; action++) {
    let score = 0;
    for (let j = 0; j < 4; j++) score += weights[j]! * shares[4 * action + j]!;
    if (score > bestScore + 1e-12) {
      best = action;
      bestScore = score;
    } else if (score > bestScore - 1e-12) {
      for (const j of order) {
        const difference = shares[4 * action + j]! - shares[4 * best + j]!;
        if (Math.abs(difference) <= 1e-12) continue;
        if (difference > 0) best = action;
        break;
      }
    }
  }
  return best;
}

const EQUAL = [1, 1, 1, 1];

/** The ceiling over a task distribution: each figure a mean over the maps. */
export function hiddenCeiling(
  maps: readonly ThinIceTask[],
  q: number,
  view: CeilingView = "observation",
  tieBreak: TieBreak = "tight",
): HiddenCeiling {
  const bayes = [0, 0, 0, 0];
  const alone = [0, 0, 0, 0];
  const order = tieBreak === "tight" ? [0, 1, 2, 3] : [3, 2, 1, 0];
  for (const map of maps) {
    for (const shares of observationShares(map, q, view)) {
      const best = bestAction(shares, EQUAL, order);
      for (let j = 0; j < 4; j++) {
        bayes[j] = bayes[j]! + shares[4 * best + j]! / maps.length;
        let top = 0;
        for (let action = 0; 4 * action < shares.length; action++) top = Math.max(top, shares[4 * action + j]!);
        alone[j] = alone[j]! + top / maps.length;
      }
    }
  }
  return { tasks: maps.length, bayes, bayesMean: bayes.reduce((a, b) => a + b, 0) / 4, alone };
}

/**
 * The best step quality a hidden-budget policy (randomising per observation if it helps) can guarantee at every
 * study budget at once: max over policies of min_j quality_j = min over budget weights lambda of
 * g(lambda) = sum over observations of max_a sum_j lambda_j share_j(o, a) (LP duality), g convex and piecewise
 * linear, minimised on the simplex by a grid of step 0.01 and then of step `precision` round its best point.
 */
export function maxMinCeiling(
  maps: readonly ThinIceTask[],
  q: number,
  view: CeilingView = "observation",
  precision = 0.001,
): { readonly value: number; readonly weights: readonly number[] } {
  // Observations with an action optimal-dominant at every budget add a linear term; only the others need a max.
  const linear = [0, 0, 0, 0];
  const choices: Float64Array[] = [];
  for (const map of maps) {
    for (const shares of observationShares(map, q, view)) {
      const scaled = shares.map((share) => share / maps.length);
      const actions = scaled.length / 4;
      const dominant = Array.from({ length: actions }, (_, a) => a).find((a) =>
        Array.from({ length: actions }, (_, b) => b).every((b) =>
          [0, 1, 2, 3].every((j) => scaled[4 * a + j]! >= scaled[4 * b + j]! - 1e-15),
        ),
      );
      if (dominant !== undefined) for (let j = 0; j < 4; j++) linear[j] = linear[j]! + scaled[4 * dominant + j]!;
      else choices.push(scaled);
    }
  }
  const g = (lambda: readonly number[]): number => {
    let sum = 0;
    for (let j = 0; j < 4; j++) sum += lambda[j]! * linear[j]!;
    for (const shares of choices) {
      let top = -Infinity;
      for (let a = 0; 4 * a < shares.length; a++) {
        let score = 0;
        for (let j = 0; j < 4; j++) score += lambda[j]! * shares[4 * a + j]!;
        top = Math.max(top, score);
      }
      sum += top;
    }
    return sum;
  };
  const search = (center: readonly number[], radius: number, step: number) => {
    let best = { value: Infinity, weights: center };
    const span = Math.round(radius / step);
    const range = (c: number): number[] =>
      Array.from({ length: 2 * span + 1 }, (_, i) => c + (i - span) * step).filter(
        (x) => x >= -1e-12 && x <= 1 + 1e-12,
      );
    for (const a of range(center[0]!))
      for (const b of range(center[1]!))
        for (const c of range(center[2]!)) {
          const d = 1 - a - b - c;
          if (d < -1e-12) continue;
          const weights = [a, b, c, Math.max(0, d)];
          const value = g(weights);
          if (value < best.value) best = { value, weights };
        }
    return best;
  };
  const coarse = search([0.5, 0.5, 0.5], 0.5, 0.01);
  return search(coarse.weights, 0.02, precision);
}
