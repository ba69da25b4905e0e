// The rollout engine: budget text, guarded policy calls (timeout, stop, reply check), one episode, many episodes
// with seeds and concurrency.
export * from "./budget-text.js";
export * from "./plan-episodes.js";
export * from "./policy-call.js";
export * from "./pool.js";
export * from "./rollout.js";
export * from "./run-episodes.js";
export * from "./task-draws.js";
