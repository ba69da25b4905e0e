// The study (`budgetrl reproduce`): its config and presets, the plan of what it trains and evaluates, the
// resumable stages, and `reproduce()` that runs them and writes the report.
export * from "./config.js";
export * from "./plan.js";
export * from "./reproduce.js";
export * from "./stages.js";
