// GiGPO, group-in-group policy optimisation (Feng et al. 2025, arXiv:2505.10978): an episode-level advantage
// plus a step-level one from "anchor states", the identical env states (equal stateKey) that several
// trajectories of the same task group passed through:
//   A^E_i      = GRPO advantage of episode i (grpo.ts)
//   G_{i,t}    = sum_{k >= t} gamma^{k-t} r_{i,k}                 (env rewards, gamma = 0.95 by default)
//   A^S_{i,t}  = G_{i,t} - mean{ G_{j,s} : stateKey_{j,s} = stateKey_{i,t} }     (/ (std + eps) with normalizeStepStd)
//   A_{i,t}    = A^E_i + w * A^S_{i,t}                                             (w = turnWeight, default 1)
// The key of a turn is the state in which its action was chosen. Edge cases: an anchor group with one member
// (a state no other step visited) gives A^S = 0; equal returns in an anchor group give 0.
import { z } from "zod";
import { DEFAULT_EPS, defineAdvantageEstimator, optionDefaults, type EstimatorOptions } from "./estimator.js";
import { grpoEpisodeAdvantages } from "./grpo.js";
import { groupOptions, turnTermOptions } from "./options.js";
import { discountedReturns, mean, sampleStd } from "./stats.js";
import type { GroupEpisode, TurnAdvantages } from "./types.js";

/** What GiGPO reads: GRPO's options, gamma and w (turnWeight), and whether A^S is divided by its anchor group's std
 * (the paper's F_norm = std; default false: mean-centred only). */
export const gigpoOptions = {
  ...groupOptions,
  ...turnTermOptions,
  normalizeStepStd: z
    .boolean()
    .default(false)
    .describe("divide the step-level advantage by its anchor group's std (default: mean-centred only)"),
};
export type GigpoOptions = EstimatorOptions<typeof gigpoOptions>;
const defaults = optionDefaults(gigpoOptions);

export function gigpoAdvantages(group: readonly GroupEpisode[], options: GigpoOptions = {}): TurnAdvantages {
  const gamma = options.gamma ?? defaults.gamma;
  const weight = options.turnWeight ?? defaults.turnWeight;
  const episodeAdvantages = grpoEpisodeAdvantages(group, options);
  const returns = group.map((episode) =>
    discountedReturns(
      episode.turns.map((turn) => turn.reward),
      gamma,
    ),
  );
  const anchors = new Map<string, number[]>();
  group.forEach((episode, i) =>
    episode.turns.forEach((turn, t) => {
      let values = anchors.get(turn.stateKey);
      if (values === undefined) anchors.set(turn.stateKey, (values = []));
      values.push(returns[i]![t]!);
    }),
  );
  const stats = new Map(
    [...anchors].map(([key, values]) => [key, { size: values.length, mean: mean(values), std: sampleStd(values) }]),
  );
  return group.map((episode, i) =>
    episode.turns.map((turn, t) => {
      const anchor = stats.get(turn.stateKey);
      const value = returns[i]![t]!;
      let step = 0;
      if (anchor !== undefined && anchor.size > 1)
        step =
          (value - anchor.mean) /
          ((options.normalizeStepStd ?? defaults.normalizeStepStd) ? anchor.std + (options.eps ?? DEFAULT_EPS) : 1);
      return episodeAdvantages[i]! + weight * step;
    }),
  );
}

export const gigpoEstimator = defineAdvantageEstimator({
  name: "gigpo",
  summary: "GiGPO, step advantages within anchor states",
  options: gigpoOptions,
  estimate: gigpoAdvantages,
});
