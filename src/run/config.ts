// The configuration of an evaluation run: declared once as a schema, validated before any work starts, stored
// with the run (so that `--resume` and `show` rebuild exactly the same plan). Cross-field rules live here too:
// K <= n, no duplicate budgets, and protocol "single" only with a hidden budget.
import { z } from "zod";
import { BUDGET_MODES, BUDGET_SCOPES, parseBudgetList, type BudgetSpec } from "../core/budget.js";
import { ConfigError } from "../core/errors.js";

export const PROTOCOLS = ["separate", "single"] as const;
export type Protocol = (typeof PROTOCOLS)[number];

export const evalConfigSchema = z.object({
  env: z.string().min(1).describe("environment name (see `budgetrl envs`)"),
  envOptions: z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null()])).default({}).describe("environment options"),
  policy: z.string().min(1).describe("policy spec, e.g. oracle, noisy-oracle:0.3, random, replay"),
  tasks: z.number().int().min(1).describe("number of tasks (generated from the seed, or the first N of a task file or dataset)"),
  tasksFile: z.string().optional().describe("read tasks from this file instead of generating them"),
  samples: z.number().int().min(1).max(100_000).describe("samples n per (task, budget)"),
  ks: z.array(z.number().int().min(1)).min(1).describe("values of K for Pass@(K,T)"),
  budgets: z.array(z.string()).min(1).describe("turn budgets T: turns (8) or percentages of the reference budget (25%)"),
  budgetMode: z.enum(BUDGET_MODES).describe("what the agent is told about its budget"),
  budgetScope: z.enum(BUDGET_SCOPES).default("episode").describe("what the budget counts: all turns, or the turns of each user turn"),
  protocol: z.enum(PROTOCOLS).default("separate").describe("separate runs per T, or one run at the largest T read at every T"),
  seed: z.number().int().min(0).describe("run seed: tasks, samples and bootstrap derive from it"),
  bootstrap: z.number().int().min(0).max(100_000).default(1000).describe("bootstrap resamples for intervals (0: none)"),
  annotate: z.boolean().default(true).describe("record the oracle's view of every state (step-quality analyses need it)"),
});

export type EvalConfig = z.output<typeof evalConfigSchema>;

/** Validate a config (typed or parsed from JSON); throws ConfigError naming the field. */
export function parseEvalConfig(input: unknown): Readonly<EvalConfig> {
  const parsed = evalConfigSchema.safeParse(input);
  if (!parsed.success) {
    const issue = parsed.error.issues[0] as z.core.$ZodIssue;
    throw new ConfigError(issue.path.map(String).join(".") || "config", issue.message);
  }
  const config = parsed.data;
  const budgets = parseBudgetList(config.budgets.join(","), "budgets");
  const largestK = Math.max(...config.ks);
  if (largestK > config.samples) throw new ConfigError("ks", `K = ${largestK} is larger than the number of samples n = ${config.samples}`, "Pass@K needs at least K samples per task: raise n or lower K");
  if (new Set(config.ks).size !== config.ks.length) throw new ConfigError("ks", "a value of K is listed twice");
  if (config.protocol === "single") {
    if (config.budgetMode !== "hidden") {
      throw new ConfigError(
        "protocol",
        `protocol "single" reads success within each T from one run at the largest T, which is only valid when the agent cannot see its budget; with a ${config.budgetMode} budget the agent plays differently at each T`,
        "use --protocol separate (one run per budget), or --budget-mode hidden",
      );
    }
    largestBudget(budgets);
  }
  return Object.freeze({ ...config, budgets: budgets.map((spec) => spec.label) });
}

/** The largest budget of a list (protocol "single" runs only it); all budgets must be of one kind. */
export function largestBudget(budgets: readonly BudgetSpec[]): BudgetSpec {
  const kinds = new Set(budgets.map((spec) => spec.kind));
  if (kinds.size > 1) throw new ConfigError("budgets", 'protocol "single" needs budgets of one kind (all turns, or all percentages) to know which is largest');
  const value = (spec: BudgetSpec): number => (spec.kind === "turns" ? spec.turns : spec.numerator / spec.denominator);
  return budgets.reduce((best, spec) => (value(spec) > value(best) ? spec : best));
}
