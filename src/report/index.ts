// Reports: terminal tables (HTML reports with charts come later).
export * from "./pass-table.js";
export * from "./text-table.js";
