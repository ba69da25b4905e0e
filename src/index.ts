// budgetrl's public API. Each layer's index.ts names what it exports; this file re-exports them.
export * from "./core/index.js";
export * from "./envs/index.js";
