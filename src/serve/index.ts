// `budgetrl serve`, the package entry "budgetrl/serve": an OpenAI-compatible HTTP server for the in-process models
// (node:http), answering a conversation as the tiny policy does (its context rule replayed, concurrent requests
// batched into the model). `serveCheckpoint({ ckpt, port: 0 })` with its config; the server, completion engine,
// request and response shapes, sessions and reply memo are internal.
export { parseServeConfig, serveConfigSchema, type ServeConfig } from "./config.js";
export { serveCheckpoint, type ServeHooks, type Serving } from "./serve.js";
