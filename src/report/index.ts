// Reports: terminal tables and run headers (HTML reports with charts come later).
export * from "./pass-table.js";
export * from "./run-header.js";
export * from "./text-table.js";
