// The roles a model can play in the findings, and the findings by id: what the analysis plan and the report's data
// model both name (kept apart from both, so neither imports the other for them).
/** What a model is in the paper's comparisons. */
export const MODEL_ROLES = ["base", "grpo", "process", "budgetmix", "budgetmix-hidden", "other"] as const;
export type ModelRole = (typeof MODEL_ROLES)[number];

export const ROLE_NAMES: Readonly<Record<ModelRole, string>> = {
  base: "base model",
  grpo: "GRPO-Full (trajectory-level RL)",
  process: "process supervision (turn-level credit)",
  budgetmix: "BudgetMix (RL over mixed budgets)",
  "budgetmix-hidden": "BudgetMix trained with hidden budgets (beyond the paper)",
  other: "other",
};

export const FINDING_IDS = ["rl-budgets", "recovery-horizon", "process", "budgetmix", "hidden-budget"] as const;
export type FindingId = (typeof FINDING_IDS)[number];
