// The tiny in-process transformer as a policy: conversation rendering and the batching Policy adapter.
export { renderMessage, renderPrompt } from "./render.js";
export { createTinyPolicy, policySeed, type TinyPolicy, type TinyPolicyOptions } from "./policy.js";
