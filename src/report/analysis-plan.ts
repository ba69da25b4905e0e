// The analysis plan: how each claim is tested, written down before any data exists. A study fixes it when its config
// is made (study.json holds it with its hash) and never changes it afterwards; the findings read it, and
// docs/study.md's rule table is rendered from the same data (plan-markdown.ts; a test compares them). Per claim:
// which models (by role), on which envs, with which statistic, at which budgets (each, pooled, or one named), and
// the margin, with the reason it was chosen. Two numbers hold for the whole plan, each with its reason:
//   smallestEffect  the smallest difference worth acting on (the margin of every claim unless it says otherwise):
//                   an interval inside +-margin is "negligible", and a difference smaller than it never supports
//                   a claim
//   minimumRange    a statistic enters a verdict on an env only where the budget-aware oracle and a uniformly
//                   random policy differ on it by at least this much (measured on the held-out tasks before any
//                   model is trained: the study's ranges); a statistic that cannot move is left out, with a note
// Verdicts are read where the plan says: `decidedBy` pooled (over seeds and, where a claim has several envs, over
// envs) or per env; the per-seed and per-env verdicts and the sensitivity table are shown beside it. Intervals are
// those of `interval`, named here so that the hash covers the method (INTERVAL_METHOD: metrics/crossed-mean.ts). The
// plan also splits the seeds into two halves before any run (`replication`): a verdict replicates when each half
// alone, decided the same way, gives it; else it is reported as not replicating, with both halves' verdicts.
import { createHash } from "node:crypto";
import { z } from "zod";
import { ConfigError } from "../core/errors.js";
import type { Json } from "../core/json.js";
import { MODEL_ROLES, type FindingId } from "./roles.js";

export const ANALYSIS_PLAN_VERSION = 2;

/** The interval of every estimate that pools seeds (metrics/crossed-mean.ts), as the plan names it. */
export const INTERVAL_METHOD = "t over seeds (S - 1 df) and over tasks, in quadrature";
export const INTERVAL_METHOD_TEXT =
  "the seed part from a t distribution on the per-seed values (seeds - 1 degrees of freedom) and the task part (the same held-out tasks in every seed) from a t distribution with its Welch-Satterthwaite degrees of freedom, their half-widths added in quadrature (metrics/crossed-mean.ts)";

const role = z.enum(MODEL_ROLES);
const label = z.string().min(1);
const fraction = z.number().min(0).max(1);

/** How a statistic read at several budgets is summarised: at every budget, pooled over them, or at one. */
export const BUDGET_READINGS = ["each", "pooled"] as const;
const reading = z.union([z.enum(BUDGET_READINGS), label]);
export type BudgetReading = z.output<typeof reading>;

const common = {
  envs: z.array(z.string().min(1)).min(1).describe("the envs the claim is tested on, each alone and pooled"),
  a: role.describe("the model whose gain is tested, by role"),
  b: role.describe("the model it is compared with, by role"),
  margin: fraction.describe("the smallest effect of interest for this claim, as a fraction (0.03 = 3 points)"),
};

export const claimPlanSchema = z.discriminatedUnion("id", [
  z.object({
    id: z.literal("rl-budgets"),
    ...common,
    generous: label.describe("the generous budget"),
    tight: label.describe("the tight budget"),
  }),
  z.object({
    id: z.literal("recovery-horizon"),
    ...common,
    concentration: reading.describe(
      "where the recovery and long-horizon gains are set against the step-quality gain: pooled over the budgets, or at one",
    ),
  }),
  z.object({
    id: z.literal("process"),
    ...common,
    stepAndRecovery: reading.describe(
      "where step quality and recovery are compared: pooled over the budgets, or at one (Pass@1 is compared at each budget)",
    ),
  }),
  z.object({
    id: z.literal("budgetmix"),
    ...common,
    tight: label.describe("the budget where BudgetMix must be higher"),
  }),
  z.object({ id: z.literal("hidden-budget"), ...common }),
]);
export type ClaimPlan = z.output<typeof claimPlanSchema>;

export const analysisPlanSchema = z.object({
  version: z.literal(ANALYSIS_PLAN_VERSION),
  level: z.number().gt(0).lt(1).describe("the level of every interval"),
  interval: z
    .literal(INTERVAL_METHOD)
    .describe(`how an interval over seeds and tasks is made: ${INTERVAL_METHOD_TEXT}`),
  replication: z
    .object({
      halves: z
        .tuple([z.array(z.number().int().min(0)).min(1), z.array(z.number().int().min(0)).min(1)])
        .describe("the study's seeds split in two, before any run"),
    })
    .nullable()
    .describe(
      "the replication split: a verdict replicates when each half of the seeds alone gives it (null: fewer than two seeds)",
    ),
  decidedBy: z
    .enum(["pooled", "per env"])
    .describe("which verdict is the claim's: pooled over seeds and envs, or one per env"),
  smallestEffect: z.object({ value: fraction, reason: z.string().min(1) }),
  minimumRange: z.object({ value: fraction, reason: z.string().min(1) }),
  claims: z.array(claimPlanSchema).min(1),
});
export type AnalysisPlan = z.output<typeof analysisPlanSchema>;

export const SMALLEST_EFFECT = 0.03;
export const SMALLEST_EFFECT_REASON =
  "The smallest difference worth acting on: 3 points of success or of step quality on held-out tasks, one task in 33. The paper reads a 0.5-point difference as little or nothing (GRPO-Full 2.5 against the base's 3.0 at BFCL's 25% budget) and calls +6.0 a gain (BudgetMix 8.5 in the same cell), its smallest; 3 points is half of that. Fixed from the paper before any run of this plan, never from a result; the sensitivity table shows every verdict at half and at twice it.";
export const MINIMUM_RANGE = 0.2;
export const MINIMUM_RANGE_REASON =
  "A statistic decides nothing where the env settles it whatever the policy does: it enters a verdict on an env only where the budget-aware oracle and a uniformly random policy differ on it by at least 20 points on the held-out tasks, measured before any model is trained. (In vault a wrong code ends the episode, so success after a forced error is at most the share of forced errors that only waste a turn.)";

/** An env of the plan: its name, its budgets in axis order (labels) and the roles its models have. */
export interface PlanEnv {
  readonly env: string;
  readonly budgets: readonly string[];
  readonly roles: readonly string[];
}

/** The two roles each claim compares: a - b. */
const CLAIM_ROLES: Readonly<Record<FindingId, { readonly a: string; readonly b: string }>> = {
  "rl-budgets": { a: "grpo", b: "base" },
  "recovery-horizon": { a: "grpo", b: "base" },
  process: { a: "process", b: "grpo" },
  budgetmix: { a: "budgetmix", b: "grpo" },
  "hidden-budget": { a: "budgetmix-hidden", b: "grpo" },
};

/** The default plan for a study's envs: every claim on every env whose models have its two roles, budgets from the
 * env's list (its ends), the margins of the plan's smallest effect. Made before any data (a study's config). With
 * `everyClaim` (a report over runs, where roles may be missing), a claim no env can test is kept on every env, so
 * that its finding says which roles it needs. */
export function defaultAnalysisPlan(
  envs: readonly PlanEnv[],
  seeds: readonly number[],
  options: { readonly everyClaim?: boolean } = {},
): AnalysisPlan {
  const claims: ClaimPlan[] = [];
  for (const [id, roles] of Object.entries(CLAIM_ROLES) as [FindingId, { a: string; b: string }][]) {
    const able = envs.filter((entry) => entry.roles.includes(roles.a) && entry.roles.includes(roles.b));
    const testing = able.length === 0 && options.everyClaim === true ? [...envs] : able;
    if (testing.length === 0) continue;
    const shared = testing[0]!.budgets.filter((budget) => testing.every((entry) => entry.budgets.includes(budget)));
    if (shared.length < 2) continue;
    const tight = shared[0]!;
    const generous = shared[shared.length - 1]!;
    const common = {
      envs: testing.map((entry) => entry.env),
      a: roles.a as ClaimPlan["a"],
      b: roles.b as ClaimPlan["b"],
      margin: SMALLEST_EFFECT,
    };
    if (id === "rl-budgets") claims.push({ id, ...common, generous, tight });
    else if (id === "recovery-horizon") claims.push({ id, ...common, concentration: "pooled" });
    else if (id === "process") claims.push({ id, ...common, stepAndRecovery: "pooled" });
    else if (id === "budgetmix") claims.push({ id, ...common, tight });
    else claims.push({ id, ...common });
  }
  return {
    version: ANALYSIS_PLAN_VERSION,
    level: 0.95,
    interval: INTERVAL_METHOD,
    replication: replicationHalves(seeds),
    decidedBy: "pooled",
    smallestEffect: { value: SMALLEST_EFFECT, reason: SMALLEST_EFFECT_REASON },
    minimumRange: { value: MINIMUM_RANGE, reason: MINIMUM_RANGE_REASON },
    claims,
  };
}

/** The default replication split: the first half of the seeds (the larger one when their number is odd) and the rest,
 * in the order given; null with fewer than two seeds. */
export function replicationHalves(seeds: readonly number[]): AnalysisPlan["replication"] {
  if (seeds.length < 2) return null;
  const cut = Math.ceil(seeds.length / 2);
  return { halves: [seeds.slice(0, cut), seeds.slice(cut)] };
}

/** Whether a reading is "each" or "pooled" rather than a budget's label. */
export const isBudgetReading = (value: string): value is (typeof BUDGET_READINGS)[number] =>
  (BUDGET_READINGS as readonly string[]).includes(value);

/** The budget labels a claim reads by name. */
function namedBudgets(claim: ClaimPlan): string[] {
  switch (claim.id) {
    case "rl-budgets":
      return [claim.generous, claim.tight];
    case "recovery-horizon":
      return isBudgetReading(claim.concentration) ? [] : [claim.concentration];
    case "process":
      return isBudgetReading(claim.stepAndRecovery) ? [] : [claim.stepAndRecovery];
    case "budgetmix":
      return [claim.tight];
    default:
      return [];
  }
}

/** Refuses a replication split that is not the study's seeds cut in two (each seed in exactly one half). */
function checkReplication(plan: AnalysisPlan, seeds: readonly number[], field: string): void {
  const halves = plan.replication?.halves;
  if (halves === undefined) {
    if (seeds.length > 1)
      throw new ConfigError(
        `${field}.replication`,
        `is null, but the study has ${seeds.length} seeds`,
        "split them in two halves",
      );
    return;
  }
  const listed = [...halves[0], ...halves[1]];
  const missing = seeds.filter((seed) => !listed.includes(seed));
  const foreign = listed.filter((seed) => !seeds.includes(seed));
  if (new Set(listed).size !== listed.length || missing.length > 0 || foreign.length > 0)
    throw new ConfigError(
      `${field}.replication.halves`,
      `must split the study's seeds (${seeds.join(", ")}) in two, each seed in one half`,
      [
        missing.length > 0 ? `missing ${missing.join(", ")}` : "",
        foreign.length > 0 ? `not a seed of the study: ${foreign.join(", ")}` : "",
      ]
        .filter((text) => text !== "")
        .join("; ") || "a seed is listed twice",
    );
}

/** Refuses a plan that names an env the study lacks, a budget an env of its claim lacks, a claim twice, a claim whose
 * models an env does not have, or a replication split that is not the study's seeds in two halves; `field` names
 * where the plan sits ("plan"). */
export function checkAnalysisPlan(
  plan: AnalysisPlan,
  envs: readonly PlanEnv[],
  seeds: readonly number[],
  field = "plan",
): void {
  checkReplication(plan, seeds, field);
  const ids = plan.claims.map((claim) => claim.id);
  if (new Set(ids).size !== ids.length) throw new ConfigError(`${field}.claims`, "a claim is listed twice");
  plan.claims.forEach((claim, index) => {
    const at = `${field}.claims.${index}`;
    for (const name of claim.envs) {
      const entry = envs.find((candidate) => candidate.env === name);
      if (entry === undefined)
        throw new ConfigError(
          `${at}.envs`,
          `names ${name}, which the study does not have`,
          `envs: ${envs.map((candidate) => candidate.env).join(", ")}`,
        );
      for (const budget of namedBudgets(claim))
        if (!entry.budgets.includes(budget))
          throw new ConfigError(
            at,
            `reads budget ${budget}, which ${name} does not have`,
            `budgets: ${entry.budgets.join(", ")}`,
          );
      for (const wanted of [claim.a, claim.b])
        if (!entry.roles.includes(wanted))
          throw new ConfigError(
            `${at}.envs`,
            `${claim.id} compares a ${wanted} model, and ${name} has none`,
            "add the RL run to the env's variants, or leave the env out of the claim",
          );
    }
  });
}

export function parseAnalysisPlan(input: unknown, field = "plan"): AnalysisPlan {
  const version = typeof input === "object" && input !== null ? (input as { version?: unknown }).version : undefined;
  if (typeof version === "number" && version < ANALYSIS_PLAN_VERSION)
    throw new ConfigError(
      `${field}.version`,
      `is ${version}, a plan of an earlier budgetrl (its intervals were a percentile bootstrap over seeds, and it had no replication split)`,
      "start a new study, or write the plan again in version " + ANALYSIS_PLAN_VERSION,
    );
  const parsed = analysisPlanSchema.safeParse(input);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  throw new ConfigError(
    [field, ...(issue?.path ?? []).map(String)].join("."),
    issue?.message ?? "is not an analysis plan",
  );
}

/** JSON with sorted keys: the text the hash is taken of, the same whatever order the keys were written in. */
function canonical(value: Json): string {
  if (value === null || typeof value !== "object") return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  return `{${Object.keys(value)
    .sort()
    .map((key) => `${JSON.stringify(key)}:${canonical((value as Record<string, Json>)[key] as Json)}`)
    .join(",")}}`;
}

/** sha256 of the plan's canonical JSON, in hex: what study.json stores beside the plan. */
export function analysisPlanHash(plan: AnalysisPlan): string {
  return createHash("sha256").update(canonical(plan)).digest("hex");
}
