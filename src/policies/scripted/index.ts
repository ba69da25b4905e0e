// Scripted policies: random, oracle, noisy oracle and replay. They see the env through PolicyContext.privileged
// (the oracle and the valid actions), never through the conversation alone.
export * from "./noisy-oracle.js";
export * from "./oracle.js";
export * from "./random.js";
export * from "./replay.js";
