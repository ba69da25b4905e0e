// `budgetrl serve`, the package entry "budgetrl/serve": a vLLM-compatible HTTP server for the in-process models
// (node:http): vLLM's request fields, structured outputs, renderers (the tiny policy's bytes or a Hugging Face chat
// template), vLLM's or the tiny policy's context rule, concurrent requests batched into the model, /metrics.
// `serveCheckpoint({ ckpt, port: 0 })` with its config; the server, completion engine, request and response
// shapes, renderers, sessions and reply memo are internal. `budgetrl env-server` too: `serveEnv({ env: "vault", port: 0 })`
// serves an env over OpenEnv's protocol (openenv/).
export { parseServeConfig, serveConfigSchema, type ServeConfig } from "./config.js";
export { serveCheckpoint, type ServeHooks, type Serving } from "./serve.js";
export { envServerConfigSchema, parseEnvServerConfig, type EnvServerConfig } from "./openenv/config.js";
export { serveEnv, type EnvServeHooks, type EnvServing } from "./openenv/serve-env.js";
