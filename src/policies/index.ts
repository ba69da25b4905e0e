// Policies, as the package exports them: the spec registry the CLI and stored runs use ("oracle", "openai:MODEL",
// "tiny:CKPT", ...), the scripted agents (random, oracle, noisy oracle, replay), models behind OpenAI-compatible
// servers (built from a spec's parts, with their option schemas), the tiny in-process transformer as a policy
// (its model from "budgetrl/nn"), and tool calls written as text by models (parsed without eval). Left out: the
// openai policy's parts (requests, transport, faults, limits, response cache) and the tiny policy's rendering,
// context rule and batching, which serve and rl import from their folders.
export {
  MalformedResponseError,
  openaiPolicyFromSpec,
  RequestFailedError,
  clientOptionsSchema,
  samplingOptionsSchema,
  type ClientOptions,
  type OpenaiPolicy,
  type OpenaiPolicyStats,
  type OpenaiSetup,
  type SamplingOptions,
} from "./openai/index.js";
export {
  noisyOraclePolicy,
  oraclePolicy,
  parseReplayScript,
  randomPolicy,
  replayPolicy,
  type ReplayScript,
} from "./scripted/index.js";
export { createPolicy, policyKinds, registerPolicyKind, type PolicyKind, type PolicySetup } from "./spec.js";
export { createTinyPolicy, type TinyPolicy, type TinyPolicyOptions } from "./tiny/index.js";
export {
  parseToolCalls,
  TOOL_CALL_FORMATS,
  writeToolCalls,
  type ParsedReply,
  type ToolCallFormat,
} from "./tool-call-text.js";
