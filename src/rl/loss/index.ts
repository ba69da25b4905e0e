// Policy-gradient losses: the clipped-ratio (PPO-style) objective with an optional k3 KL term, as per-token
// coefficients for the trainer backend.
export { DEFAULT_PPO, ppoCoefficients, type PpoOptions, type PpoResult, type PpoTokens } from "./ppo.js";
