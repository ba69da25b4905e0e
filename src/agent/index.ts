// The rollout engine: budget text, one episode, many episodes with seeds and concurrency.
export * from "./budget-text.js";
export * from "./pool.js";
export * from "./rollout.js";
export * from "./run-episodes.js";
