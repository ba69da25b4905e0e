// Reports: terminal tables and run headers, and the study report (its data model, how it is built from runs
// in a store, its findings, its terminal tables and its HTML rendering).
export * from "./findings.js";
export * from "./html/index.js";
export * from "./pass-table.js";
export * from "./run-header.js";
export * from "./study-build.js";
export * from "./study-data.js";
export * from "./study-model.js";
export * from "./study-runs.js";
export * from "./study-tables.js";
export * from "./text-table.js";
export * from "./training-curves.js";
