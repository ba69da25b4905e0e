// Policies: scripted agents (random, oracle, noisy oracle, replay) and the spec registry used by the CLI.
export * from "./scripted/noisy-oracle.js";
export * from "./scripted/oracle.js";
export * from "./scripted/random.js";
export * from "./scripted/replay.js";
export * from "./spec.js";
