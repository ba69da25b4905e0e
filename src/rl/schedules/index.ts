// Budget schedules for training: fixed:T and BudgetMix (uniform, weighted, +curriculum), and the config field
// that parses them once.
export * from "./schedule.js";
