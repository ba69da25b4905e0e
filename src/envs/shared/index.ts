// What env authors share: answer extraction (<answer>...</answer>), direction parsing, option builders and the
// option validator, and the per-task cache of compiled tasks.
export * from "./answer.js";
export * from "./directions.js";
export * from "./options.js";
export * from "./task-cache.js";
