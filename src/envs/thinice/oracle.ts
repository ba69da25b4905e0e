// The thin ice oracle: the task's MDP (mdp.ts) solved exactly at every horizon by shared/finite-mdp.ts.
//   within t turns left: the actions maximising the success probability within t, then the fewest expected
//                        turns; the unlimited-horizon set where nothing can succeed in time (value 0);
//   unlimited horizon:   the fixed point of the same recursion: the safe route's moves wherever one exists;
//   remaining:           the fewest turns to a goal with a positive chance (the short route), whatever t is;
//   value:               the success probability within t (unlimited: with all the time needed).
// Layers are computed on first use and kept with the compiled task (the env's task cache).
import type { OracleAnswer } from "../../core/env.js";
import { directionsOfMask } from "../shared/directions.js";
import { solveMdp, type FiniteMdp, type MdpSolution } from "../shared/finite-mdp.js";
import { checkTurnsLeft } from "../shared/turns-left.js";

export interface ThinIceAnswers {
  readonly solution: MdpSolution;
  /** The oracle's answer in MDP state `state` within `turnsLeft` turns (undefined or Infinity: unlimited). */
  answer(state: number, turnsLeft?: number): OracleAnswer;
  /** Success probability within `turnsLeft` turns under optimal play (Infinity: unlimited). */
  value(state: number, turnsLeft?: number): number;
}

export function createAnswers(mdp: FiniteMdp): ThinIceAnswers {
  const solution = solveMdp(mdp);
  const value = (state: number, turnsLeft?: number): number => solution.layer(checkTurnsLeft(turnsLeft)).values[state]!;
  return {
    solution,
    answer(state, turnsLeft) {
      const layer = solution.layer(checkTurnsLeft(turnsLeft));
      return { optimal: directionsOfMask(layer.masks[state]!), remaining: solution.remaining[state]!, value: layer.values[state]! };
    },
    value,
  };
}
