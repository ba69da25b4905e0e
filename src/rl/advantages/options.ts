// The options several advantage estimators read, declared once so that each estimator that reads one declares the
// same field (the registry checks it): how a group's trajectories are scored and normalised (every estimator),
// and the turn-level term that `turn` and `gigpo` add to the trajectory advantage,
//   A_{i,t} = A^traj_i + turnWeight * A^turn_{i,t}      (turn: per turn index; gigpo: per anchor state)
// `turnWeight` is the one name of that weight; configs and flags from before it (lambda for turn, stepWeight for
// gigpo) are read by train-config.ts.
import { z } from "zod";
import { TRAJECTORY_REWARDS } from "./types.js";

/** How a group's trajectories are scored and normalised (GRPO, and the trajectory term of the others). */
export const groupOptions = {
  reward: z.enum(TRAJECTORY_REWARDS).default("return").describe("trajectory reward: env return or 1/0 success"),
  normalizeStd: z.boolean().default(true).describe("divide group advantages by their std"),
};

/** The turn-level term added to the trajectory advantage. */
export const turnTermOptions = {
  gamma: z.number().min(0).max(1).default(0.95).describe("discount over turns"),
  turnWeight: z
    .number()
    .min(0)
    .default(1)
    .describe("weight of the turn-level advantage (turn: per turn index; gigpo: per anchor state)"),
};
