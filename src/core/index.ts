// Core types shared by every layer: messages, budgets, the env and policy contracts, episodes, seeded RNG.
export * from "./analysis-rows.js";
export * from "./budget.js";
export * from "./commands.js";
export * from "./env.js";
export * from "./episode.js";
export * from "./errors.js";
export * from "./gym.js";
export * from "./hash.js";
export * from "./json.js";
export * from "./message.js";
export * from "./outcome.js";
export * from "./policy.js";
export * from "./rng.js";
export * from "./url-location.js";
