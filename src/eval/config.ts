// The configuration of an evaluation run: declared once as a schema with every default here (the CLI's flags,
// help and defaults come from it, so `budgetrl eval` and `evaluate()` with the same options make the same run),
// validated before any work starts, stored with the run (so that `--resume` and `show` rebuild exactly the same
// plan). Budgets and the policy are parsed once, here, into BudgetSpec values and a PolicySpec (stored as their
// labels); the env is one of the registry's names. Cross-field rules live here too: K <= n, and protocol "single"
// only with a hidden budget and budgets of one kind.
import { z } from "zod";
import { BUDGET_MODES, BUDGET_SCOPES, largestBudget, type BudgetSpec } from "../core/budget.js";
import { budgetListField, encodeConfig, integerListField, parseConfig } from "../core/config.js";
import { ConfigError } from "../core/errors.js";
import type { Json } from "../core/json.js";
import { policySpecField } from "../core/policy-spec.js";
import { envReferenceField } from "../envs/registry.js";
import { interventionField } from "../agent/interventions.js";
import { DEFAULT_TASK_DISTINCTION, TASK_DISTINCTIONS } from "../agent/task-draws.js";
import { heldOutSetField } from "./held-out-field.js";

export const PROTOCOLS = ["separate", "single"] as const;
export type Protocol = (typeof PROTOCOLS)[number];

export const envOptionsField = z
  .record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null()]))
  .default({})
  .describe("environment options");

export const evalConfigSchema = z.object({
  env: envReferenceField(
    "environment: sokoban, frozenlake, hanoi, vault, thinice, bfcl (see `budgetrl envs`), or openenv:URL (an OpenEnv server's env)",
  ),
  envOptions: envOptionsField,
  policy: policySpecField().describe(
    "policy: oracle, noisy-oracle:EPS, random, replay[:FILE], tiny:CHECKPOINT, openai:MODEL, tinker:BASE|CHECKPOINT|tinker://PATH",
  ),
  policyOptions: z
    .record(z.string(), z.json())
    .optional()
    .describe(
      "the policy's options that change results (openai: temperature, topP, maxTokens, seed, n, logprobs, extraBody, ...; tinker: baseModel, renderer, templateOptions, temperature, ...), stored with the run",
    ),
  tasks: z
    .number()
    .int()
    .min(1)
    .default(100)
    .describe(
      "number of tasks, distinct by content (generated from the seed, or the first N of a task file or dataset)",
    ),
  distinct: z
    .enum(TASK_DISTINCTIONS)
    .default(DEFAULT_TASK_DISTINCTION)
    .describe(
      "what the tasks are distinct in: content, or structure (no two the same problem, e.g. two thinice maps of one playable layout; docs/envs.md says what each env counts as the same); --seed S --tasks N --distinct structure plays the held-out set S:N:structure",
    ),
  tasksFile: z
    .string()
    .optional()
    .describe("read tasks from this file (sokoban levels, frozenlake maps, hanoi or vault lines, bfcl entry ids)"),
  samples: z.number().int().min(1).max(100_000).default(8).describe("samples n per (task, budget)"),
  ks: integerListField()
    .prefault("1")
    .meta({ flag: "k" })
    .describe("values of K for Pass@(K,T), comma-separated, each <= samples"),
  budgets: budgetListField()
    .prefault("100%")
    .meta({ flag: "budget" })
    .describe(
      "turn budgets T, comma-separated: turns (8) or % of the task's reference budget (25%); at most 10000 turns or 1000%",
    ),
  budgetMode: z
    .enum(BUDGET_MODES)
    .default("announced")
    .describe("what the agent is told: total and remaining turns, remaining only, or nothing"),
  budgetScope: z
    .enum(BUDGET_SCOPES)
    .default("episode")
    .describe("what the budget counts: all turns, or the turns of each user turn (bfcl)"),
  protocol: z
    .enum(PROTOCOLS)
    .default("separate")
    .describe("separate runs per T (always valid), or one run at the largest T read at every T (hidden budgets only)"),
  seed: z.number().int().min(0).default(1).describe("run seed: tasks, samples and bootstrap derive from it"),
  bootstrap: z
    .number()
    .int()
    .min(0)
    .max(100_000)
    .default(1000)
    .describe("bootstrap resamples for confidence intervals (0: none)"),
  annotate: z
    .boolean()
    .default(true)
    .describe("record the oracle's view of every state (step-quality analyses need it)"),
  exclude: heldOutSetField()
    .optional()
    .describe(
      "a held-out set to leave out: SEED:TASKS (the first TASKS distinct tasks generated from SEED, left out by content), SEED:TASKS:structure (the first TASKS tasks of distinct structures, and every task of their structures left out) or a held-out.json (or the study folder holding it) as budgetrl reproduce writes it (training and demonstration runs)",
    ),
  intervention: interventionField()
    .prefault("none")
    .describe(
      "none; teacher-forced (the policy answers, the expert plays: step quality on oracle states); recover:J (the expert plays up to J, a random non-optimal action is forced at J, then the policy plays on: recovery on states every model shares)",
    ),
});

export type EvalConfig = z.output<typeof evalConfigSchema>;
/** An eval config as users write it and the store keeps it (budget labels, the policy's label, K lists). */
export type EvalConfigInput = z.input<typeof evalConfigSchema>;

/** Validate a config (typed or parsed from JSON); throws ConfigError naming the field. */
export function parseEvalConfig(input: unknown): Readonly<EvalConfig> {
  const config = parseConfig(evalConfigSchema, input);
  const largestK = Math.max(...config.ks);
  if (largestK > config.samples)
    throw new ConfigError(
      "ks",
      `K = ${largestK} is larger than the number of samples n = ${config.samples}`,
      "Pass@K needs at least K samples per task: raise the samples or lower K",
    );
  if (config.protocol === "single") {
    if (config.budgetMode !== "hidden") {
      throw new ConfigError(
        "protocol",
        `protocol "single" reads success within each T from one run at the largest T, which is only valid when the agent cannot see its budget; with a ${config.budgetMode} budget the agent plays differently at each T`,
        "use --protocol separate (one run per budget), or --budget-mode hidden",
      );
    }
    largestBudget(config.budgets);
  }
  return config;
}

/** The stored (JSON) form of a config: budget labels, the policy's label and plain lists. */
export function encodeEvalConfig(config: Readonly<EvalConfig>): Json {
  return encodeConfig(evalConfigSchema, config) as Json;
}

/** The budgets a run plays: every budget, or only the largest under protocol "single". */
export function budgetsToRun(config: Pick<EvalConfig, "protocol" | "budgets">): readonly BudgetSpec[] {
  return config.protocol === "single" ? [largestBudget(config.budgets)] : config.budgets;
}
