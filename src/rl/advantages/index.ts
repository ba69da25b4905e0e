// Advantage estimators: pure functions from a group of episodes to per-turn advantages, by name.
export * from "./estimator.js";
export * from "./gigpo.js";
export * from "./grpo.js";
export * from "./options.js";
export * from "./registry.js";
export * from "./stats.js";
export * from "./turn.js";
export * from "./types.js";
