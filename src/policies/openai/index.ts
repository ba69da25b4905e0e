// The openai policy: any model behind an OpenAI-compatible server (vLLM, SGLang, llama.cpp, Ollama, hosted APIs),
// with native tool calls, token ids and log-probs, faults survived, and an on-disk response cache.
export {
  cacheKey,
  cacheSummary,
  requestIdentity,
  type RequestIdentity,
  clearResponseCache,
  defaultCacheDir,
  openResponseCache,
  CACHE_FILE,
  type ResponseCache,
} from "./cache.js";
export { openaiPolicyFromSpec, type OpenaiSetup } from "./create.js";
export { classifyFault, isContextLengthText, retryAfterMs, retryDelay, type FaultVerdict } from "./faults.js";
export { createRequestLimiter, realSleep, type RequestLimiter, type Sleep } from "./limiter.js";
export {
  clientOptionsSchema,
  parseClientOptions,
  parseSamplingOptions,
  readApiKey,
  samplingOptionsSchema,
  storedSamplingOptions,
  type ClientOptions,
  type SamplingOptions,
} from "./options.js";
export {
  createOpenaiPolicy,
  planRequest,
  type OpenaiPolicy,
  type OpenaiPolicyOptions,
  type OpenaiPolicyStats,
} from "./policy.js";
export { chatMessage, chatRequest, chatTool } from "./request.js";
export { readChoices, responseProblem, type SampledChoice } from "./response.js";
export {
  createOpenaiTransport,
  MalformedResponseError,
  RequestFailedError,
  type ChatTransport,
  type TransportSettings,
  type TransportStats,
} from "./transport.js";
