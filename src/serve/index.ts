// `budgetrl serve`: an OpenAI-compatible HTTP server for the in-process models (node:http), answering a
// conversation as the tiny policy does (its context rule replayed, concurrent requests batched into the model).
export { serveCheckpoint, type ServeHooks, type Serving } from "./serve.js";
export { parseServeConfig, serveConfigSchema, type ServeConfig } from "./config.js";
export { startServer, type RunningServer, type ServerOptions, type ServerStats } from "./server.js";
export { choiceSeed, createCompletionEngine, LOGPROBS_MODES, type CompletedChoice, type Completion, type CompletionEngine, type CompletionSettings, type LogprobsMode } from "./completions.js";
export { parseChatRequest, type ChatRequest } from "./request.js";
export { completionBody, streamChunks, type ResponseMeta } from "./response.js";
export { createReplyMemo, roundTrips, type ReplyMemo } from "./reply-memo.js";
export { errorBody, HttpError } from "./errors.js";
