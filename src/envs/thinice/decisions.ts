// How much of the budget-aware oracle's play depends on the budget, on a task distribution: what a policy that
// cannot see the turns left (hidden budgets) gives up. For each task and study budget T_j (tradeoff.ts), the
// oracle's episodes are followed exactly (the state distribution turn by turn, uniform among optimal actions,
// breaks included); a live state is budget-dependent when no action is optimal at every visit of it, at any
// turn of any of the four budgets. Then, per budget j:
//   dependentShare[j] = mean over tasks of (visits of budget-dependent states / all visits) at T_j,
// visits weighted by probability: the share of turns whose right move needs the turns left, on the states
// teacher-forced runs visit (the oracle's), as step quality averages them (each task weighs the same).
import { actionsOfMask, LIVE, solveMdp, type MdpSolution } from "../shared/finite-mdp.js";
import type { ThinIceTask } from "./maps.js";
import { buildIceMdp } from "./mdp.js";
import { compileIce } from "./rules.js";
import { studyBudgets } from "./tradeoff.js";

/** One visit of the oracle's episodes: a live state, the label of the move that led there (0 at the start), the
 * turns used before it, its probability and the oracle's optimal mask there. */
export interface OracleVisit {
  readonly state: number;
  readonly label: number;
  readonly used: number;
  readonly weight: number;
  readonly mask: number;
}

/**
 * Follows the oracle's episodes within `turns` (uniform among optimal actions, breaks included), turn by turn,
 * calling `visit` at every live (state, label) with its probability. Mass is kept apart per label: `labelOf` names
 * each transition with one of `labels` labels (1 and a constant 0: per state only).
 */
export function followOracle(
  solution: MdpSolution,
  start: number,
  turns: number,
  visit: (visit: OracleVisit) => void,
  labels = 1,
  labelOf: (state: number, action: number, next: number) => number = () => 0,
): void {
  const { mdp } = solution;
  let mass = new Map<number, number>([[start * labels, 1]]);
  for (let used = 0; used < turns; used++) {
    const after = new Map<number, number>();
    for (const [key, weight] of mass) {
      const state = Math.floor(key / labels);
      if (mdp.ends[state] !== LIVE) continue;
      const mask = solution.layer(turns - used).masks[state]!;
      visit({ state, label: key - state * labels, used, weight, mask });
      const chosen = actionsOfMask(mask);
      for (const action of chosen) {
        const pair = state * mdp.actions + action;
        for (let index = mdp.start[pair]!; index < mdp.start[pair + 1]!; index++) {
          const next = mdp.next[index]!;
          const code = next * labels + labelOf(state, action, next);
          after.set(code, (after.get(code) ?? 0) + (weight / chosen.length) * mdp.prob[index]!);
        }
      }
    }
    mass = after;
  }
}

/** Visits of the oracle's episodes within `turns`: [state, probability, optimal mask] per live state and turn. */
export function oracleVisits(solution: MdpSolution, start: number, turns: number): [number, number, number][] {
  const visits: [number, number, number][] = [];
  followOracle(solution, start, turns, ({ state, weight, mask }) => visits.push([state, weight, mask]));
  return visits;
}

/** The share of each study budget's turns spent in budget-dependent states (mean over the maps). */
export function dependentShare(maps: readonly ThinIceTask[], q: number): number[] {
  const sums = [0, 0, 0, 0];
  for (const map of maps) {
    const ice = compileIce(map);
    const solution = solveMdp(buildIceMdp(ice, q));
    const perBudget = studyBudgets(solution.remaining[ice.start]!).map((turns) =>
      oracleVisits(solution, ice.start, turns),
    );
    const common = new Map<number, number>();
    for (const visits of perBudget)
      for (const [state, , mask] of visits) common.set(state, (common.get(state) ?? 0xf) & mask);
    perBudget.forEach((visits, j) => {
      const total = visits.reduce((sum, [, weight]) => sum + weight, 0);
      const dependent = visits.reduce((sum, [state, weight]) => sum + (common.get(state) === 0 ? weight : 0), 0);
      sums[j] = sums[j]! + dependent / total;
    });
  }
  return sums.map((sum) => sum / maps.length);
}
