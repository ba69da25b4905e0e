// Policies: scripted agents (random, oracle, noisy oracle, replay), models behind OpenAI-compatible servers, the
// spec registry the CLI and stored runs use, and tool calls written as text by models (parsed without eval).
export * from "./openai/index.js";
export * from "./scripted/index.js";
export * from "./spec.js";
export * from "./json-spans.js";
export * from "./tool-call-text.js";
