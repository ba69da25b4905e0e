// Policies: scripted agents (random, oracle, noisy oracle, replay) and the spec registry the CLI and stored runs use.
export * from "./scripted/index.js";
export * from "./spec.js";
