// `budgetrl serve`: an OpenAI-compatible HTTP server for the in-process models (node:http), answering a
// conversation as the tiny policy does (its context rule replayed, concurrent requests batched into the model).
export { serveCheckpoint, type ServeHooks, type Serving } from "./serve.js";
export { parseServeConfig, serveConfigSchema, type ServeConfig } from "./config.js";
export { startServer, type RunningServer, type ServerOptions, type ServerStats } from "./server.js";
export { choiceSeed, createSamplingEngine, LOGPROBS_MODES, type EngineSettings, type GenerationRequest, type LogprobsMode, type SampledChoice, type SamplingEngine } from "./engine.js";
export { answerChat, chatPrompt, type ChatContext, type ChatSettings } from "./chat.js";
export { streamChat } from "./chat-stream.js";
export { answerCompletions, parseCompletionRequest, streamCompletions, type CompletionRequest } from "./completions.js";
export { detokenizeBody, tokenizeBody } from "./tokenize.js";
export { parseChatRequest, type ChatRequest, type ToolChoice, type ToolDefinition } from "./request.js";
export { chatCompletionBody, type ChatAnswer, type ChatChoice, type ResponseMeta } from "./response.js";
export { refuseUnhonoured, IGNORED_FIELDS, NEUTRAL_ONLY_FIELDS } from "./fields.js";
export { schemaShape, type Shape } from "./schema-shape.js";
export { createJsonConstraint, type JsonConstraint } from "./json-constraint.js";
export { stopRule, type StopRule } from "./stop.js";
export { createReplyMemo, givesBack, roundTrips, type ReplyMemo } from "./reply-memo.js";
export { errorBody, HttpError } from "./errors.js";
