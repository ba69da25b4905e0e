// budgetrl's public API. Each layer's index.ts names what it exports; this file re-exports them.
export * from "./core/index.js";
export * from "./envs/index.js";
export * from "./agent/index.js";
export * from "./policies/index.js";
export * from "./store/index.js";
export * from "./metrics/index.js";
export * from "./eval/index.js";
export * from "./report/index.js";
export * from "./rl/index.js";
export * from "./study/index.js";
// The in-process transformer, under its own namespace (its token names would collide): nn.createModel, ...
export * as nn from "./nn/index.js";
export * from "./policies/tiny/index.js";
// `budgetrl serve` as a library call (the rest of src/serve is reachable from its index).
export { serveCheckpoint, serveConfigSchema, type ServeConfig, type ServeHooks, type Serving } from "./serve/index.js";
