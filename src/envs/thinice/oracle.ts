// The thin ice oracle: the task's MDP (mdp.ts) solved exactly at every horizon by shared/finite-mdp.ts.
//   within t turns left: the actions maximising the success probability within t, then the fewest expected
//                        turns; the unlimited-horizon set where nothing can succeed in time (value 0);
//   unlimited horizon:   the fixed point of the same recursion: the safe route's moves wherever one exists;
//   remaining:           the fewest turns to a goal with a positive chance (the short route), whatever t is;
//   value:               the success probability within t (unlimited: with all the time needed).
// Answered per state by shared/mdp-answers.ts, with the directions' texts; layers are computed on first use and
// kept with the compiled task (the env's task cache).
import { directionsOfMask } from "../shared/directions.js";
import type { FiniteMdp } from "../shared/finite-mdp.js";
import { mdpAnswers, type MdpAnswers } from "../shared/mdp-answers.js";

export type ThinIceAnswers = MdpAnswers;

export function createAnswers(mdp: FiniteMdp): ThinIceAnswers {
  return mdpAnswers(mdp, directionsOfMask);
}
