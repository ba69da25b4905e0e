// Scripted policies: random, oracle, noisy oracle and replay. They see the env through PolicyContext.privileged
// (the oracle and the valid actions), never through the conversation alone.
export { noisyOraclePolicy } from "./noisy-oracle.js";
export { optimalActions, oracleAction, oraclePolicy } from "./oracle.js";
export { randomPolicy } from "./random.js";
export { parseReplayScript, replayPolicy, type ReplayScript } from "./replay.js";
