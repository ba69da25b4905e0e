// Budget schedules for training: pure functions from (training step, rollout group, seed) to the turn budget of
// that group. Orthogonal to the advantage estimator.
//   fixed:T                      every group at T (GRPO-Full trains at fixed:100%)
//   budgetmix:25%,50%,75%,100%   the paper's BudgetMix: each group draws its own budget, uniformly
//   budgetmix:25%=1,100%=3       weighted draws (weights need not sum to 1)
//   budgetmix:...+curriculum     generous first: at step s of S, only the ceil(m * (s+1) / S) largest of the m
//                                budgets are eligible (the largest alone at the start, all of them at the end)
// The drawn budget is announced (total and remaining) when the training budget mode is "announced".
import { z } from "zod";
import { budgetSize, parseBudgetSpec, type BudgetSpec } from "../../core/budget.js";
import { ConfigError } from "../../core/errors.js";
import { createRng, deriveSeed } from "../../core/rng.js";

export interface BudgetChoice {
  readonly spec: BudgetSpec;
  readonly weight: number;
}

export interface BudgetSchedule {
  readonly kind: "fixed" | "budgetmix";
  readonly choices: readonly BudgetChoice[];
  readonly curriculum: boolean;
  /** The spec as written, for logs and stored configs. */
  readonly text: string;
}

export interface DrawContext {
  readonly step: number;
  readonly group: number;
  readonly totalSteps: number;
  readonly seed: number;
}

export function parseBudgetSchedule(text: string, field = "budget"): BudgetSchedule {
  const trimmed = text.trim();
  const colon = trimmed.indexOf(":");
  const kind = colon < 0 ? trimmed : trimmed.slice(0, colon);
  let body = colon < 0 ? "" : trimmed.slice(colon + 1);
  if (kind === "fixed") {
    if (body === "") throw new ConfigError(field, 'fixed needs a budget, e.g. "fixed:100%"');
    return {
      kind: "fixed",
      choices: [{ spec: parseBudgetSpec(body, field), weight: 1 }],
      curriculum: false,
      text: trimmed,
    };
  }
  if (kind !== "budgetmix")
    throw new ConfigError(
      field,
      `unknown budget schedule "${text}"`,
      'use "fixed:T" or "budgetmix:T1,T2,..." (e.g. budgetmix:25%,50%,75%,100%)',
    );
  const curriculum = body.endsWith("+curriculum");
  if (curriculum) body = body.slice(0, -"+curriculum".length);
  const choices = body
    .split(",")
    .filter((part) => part.trim() !== "")
    .map((part): BudgetChoice => {
      const [budget, weightText] = part.split("=") as [string, string | undefined];
      const weight = weightText === undefined ? 1 : Number(weightText);
      if (!(weight > 0 && Number.isFinite(weight)))
        throw new ConfigError(field, `weight of ${budget.trim()} must be a positive number, got "${weightText ?? ""}"`);
      return { spec: parseBudgetSpec(budget, field), weight };
    });
  if (choices.length === 0)
    throw new ConfigError(field, "budgetmix needs at least one budget, e.g. budgetmix:25%,50%,75%,100%");
  if (new Set(choices.map((choice) => choice.spec.kind)).size > 1)
    throw new ConfigError(
      field,
      "budgetmix budgets must be of one kind: all turns, all percentages or all multiples of the optimum",
    );
  if (new Set(choices.map((choice) => choice.spec.label)).size !== choices.length)
    throw new ConfigError(field, "a budget is listed twice");
  return { kind: "budgetmix", choices, curriculum, text: trimmed };
}

/** A config field holding a schedule: written as text ("budgetmix:25%,100%"), decoded once to a BudgetSchedule
 * (a schedule handed over by a library user or a parsed config is read back from its text). */
export function budgetScheduleField() {
  const input = z.union([z.string(), z.object({ text: z.string() }).transform((schedule) => schedule.text)]);
  return z.codec(input, z.custom<BudgetSchedule>(), {
    decode: (text, context) => {
      try {
        return parseBudgetSchedule(text);
      } catch (error) {
        if (!(error instanceof ConfigError)) throw error;
        context.issues.push({ code: "custom", message: error.reason, input: text });
        return z.NEVER;
      }
    },
    encode: (schedule) => schedule.text,
  });
}

/** The budgets eligible at a step (all, or the largest few under the curriculum), largest first. */
export function eligibleChoices(schedule: BudgetSchedule, step: number, totalSteps: number): BudgetChoice[] {
  const sorted = [...schedule.choices].sort((a, b) => budgetSize(b.spec) - budgetSize(a.spec));
  if (!schedule.curriculum) return sorted;
  const count = Math.max(1, Math.min(sorted.length, Math.ceil((sorted.length * (step + 1)) / Math.max(1, totalSteps))));
  return sorted.slice(0, count);
}

/** The budget of one rollout group: deterministic in (seed, step, group). */
export function drawBudget(schedule: BudgetSchedule, context: DrawContext): BudgetSpec {
  const choices = eligibleChoices(schedule, context.step, context.totalSteps);
  if (choices.length === 1) return choices[0]!.spec;
  const total = choices.reduce((sum, choice) => sum + choice.weight, 0);
  let target = createRng(deriveSeed(context.seed, "budget", context.step, context.group)).next() * total;
  for (const choice of choices) {
    target -= choice.weight;
    if (target < 0) return choice.spec;
  }
  return choices[choices.length - 1]!.spec;
}
