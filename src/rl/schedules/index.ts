// Budget schedules for training: fixed:T and BudgetMix (uniform, weighted, +curriculum), and the config field
// that parses them once.
export {
  budgetScheduleField,
  drawBudget,
  eligibleChoices,
  parseBudgetSchedule,
  type BudgetChoice,
  type BudgetSchedule,
  type DrawContext,
} from "./schedule.js";
