// The package entry "budgetrl/envs/hanoi": the env with its config schema and the types of its tasks and states.
// The root ("budgetrl") holds the constructor and its config type.
export { hanoi, type HanoiConfig, type HanoiState, type HanoiTask } from "./index.js";
export { hanoiConfigSchema } from "./config.js";
