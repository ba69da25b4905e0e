// An env's oracle from its task's explicit MDP, solved exactly at every horizon (finite-mdp.ts), answered per
// MDP state (thin ice, vault):
//   optimal   = the optimal action set within t turns left, as the env's action texts (the env names a mask's
//               actions); where nothing can succeed in time, the unlimited-horizon set (finite-mdp.ts);
//   remaining = the fewest turns to success with a positive chance, whatever t is;
//   value     = the success probability within t under optimal play.
// t is the turns left, or undefined or Infinity for an unlimited horizon (checkTurnsLeft refuses the rest).
// Layers are computed on first use and kept with the solution (the env's task cache keeps that).
import type { OracleAnswer } from "../../core/oracle.js";
import { solveMdp, type FiniteMdp, type MdpSolution } from "./finite-mdp.js";
import { checkTurnsLeft } from "./turns-left.js";

export interface MdpAnswers {
  readonly solution: MdpSolution;
  /** The oracle's answer in MDP state `state` within `turnsLeft` turns (undefined or Infinity: unlimited). */
  answer(state: number, turnsLeft?: number): OracleAnswer;
  /** Success probability within `turnsLeft` turns under optimal play (undefined or Infinity: unlimited). */
  value(state: number, turnsLeft?: number): number;
}

export function mdpAnswers(mdp: FiniteMdp, textsOfMask: (mask: number) => readonly string[]): MdpAnswers {
  const solution = solveMdp(mdp);
  const value = (state: number, turnsLeft?: number): number => solution.layer(checkTurnsLeft(turnsLeft)).values[state]!;
  return {
    solution,
    answer(state, turnsLeft) {
      const layer = solution.layer(checkTurnsLeft(turnsLeft));
      return {
        optimal: textsOfMask(layer.masks[state]!),
        remaining: solution.remaining[state]!,
        value: layer.values[state]!,
      };
    },
    value,
  };
}
