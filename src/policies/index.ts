// Policies: scripted agents (random, oracle, noisy oracle, replay), models behind OpenAI-compatible servers, and the
// spec registry the CLI and stored runs use.
export * from "./openai/index.js";
export * from "./scripted/index.js";
export * from "./spec.js";
