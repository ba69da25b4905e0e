// budgetrl's public API. Each layer's index.ts names what it exports; this file re-exports them.
export * from "./core/index.js";
export * from "./envs/index.js";
export * from "./agent/index.js";
export * from "./policies/index.js";
export * from "./store/index.js";
export * from "./metrics/index.js";
export * from "./run/index.js";
export * from "./report/index.js";
