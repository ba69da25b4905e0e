// Turn budgets: how many agent turns an episode may take, and what the agent is told about it.
// A budget is part of the rollout, not of the env: the same task can be played at 25% or at 100%.
//   spec "8"   -> 8 turns
//   spec "25%" -> ceil(0.25 * reference budget of the task), at least 1 (exact rational arithmetic)
// Modes: announced (total and remaining stated), remaining (only turns left), hidden (no text; cut at T).
// Scope: "episode" counts every turn; "user-turn" restarts the count at each new user turn (BFCL).
// Bounds: at most 10,000 turns and at most 1000% of the reference; larger budgets are refused when parsed (an
// episode keeps its whole conversation in memory, so `--budget 9999999` would exhaust it rather than measure).
import { ConfigError } from "./errors.js";

export const BUDGET_MODES = ["announced", "remaining", "hidden"] as const;
export type BudgetMode = (typeof BUDGET_MODES)[number];
export const BUDGET_SCOPES = ["episode", "user-turn"] as const;
export type BudgetScope = (typeof BUDGET_SCOPES)[number];

/** A budget as the user wrote it: absolute turns or a percentage (kept as an exact fraction). */
export type BudgetSpec =
  | { readonly kind: "turns"; readonly turns: number; readonly label: string }
  | { readonly kind: "fraction"; readonly numerator: number; readonly denominator: number; readonly label: string };

/** The budget of one rollout, resolved for its task. */
export interface Budget {
  readonly turns: number;
  readonly mode: BudgetMode;
  readonly scope: BudgetScope;
  /** The spec it came from ("8", "25%"): the label tables and the store group by. */
  readonly label: string;
}

const PERCENT = /^(\d{1,4})(?:\.(\d{1,4}))?%$/;
const TURNS = /^\d+$/;
/** The largest turn budget, and the largest percentage of a task's reference budget. */
export const MAX_BUDGET_TURNS = 10_000;
export const MAX_BUDGET_PERCENT = 1000;

/** Why a text is not a budget: the problem and how to write one. */
export interface BudgetSpecProblem {
  readonly problem: string;
  readonly hint?: string;
}

/** The one budget parser: "8", "25%" or "12.5%" to a spec, or the problem with the text. */
export function readBudgetSpec(text: string): BudgetSpec | BudgetSpecProblem {
  const trimmed = text.trim();
  if (TURNS.test(trimmed)) {
    const turns = Number(trimmed);
    if (turns < 1) return { problem: `a turn budget must be at least 1, got "${text}"` };
    if (turns > MAX_BUDGET_TURNS) return { problem: `a turn budget of ${trimmed} is above the largest, ${MAX_BUDGET_TURNS} turns`, hint: `every turn of an episode is kept in memory; use at most ${MAX_BUDGET_TURNS}, or a percentage of the task's reference budget ("100%")` };
    return { kind: "turns", turns, label: String(turns) };
  }
  const match = PERCENT.exec(trimmed);
  if (match !== null) {
    const decimals = match[2] ?? "";
    const denominator = 100 * 10 ** decimals.length;
    const numerator = Number(`${match[1]}${decimals}`);
    if (numerator === 0) return { problem: `a percentage budget must be above 0%, got "${text}"` };
    if (numerator > MAX_BUDGET_PERCENT * 10 ** decimals.length) return { problem: `a budget of ${trimmed} is above the largest, ${MAX_BUDGET_PERCENT}% of the reference budget` };
    return { kind: "fraction", numerator, denominator, label: trimmed };
  }
  return { problem: `"${text}" is not a budget`, hint: `write a number of turns ("8") or a percentage of the task's reference budget ("25%")` };
}

export function isBudgetProblem<T extends object>(value: T | BudgetSpecProblem): value is BudgetSpecProblem {
  return !Array.isArray(value) && "problem" in value;
}

/** Parse "8" or "25%" (or "12.5%"). `field` names the option in the error message. */
export function parseBudgetSpec(text: string, field = "budget"): BudgetSpec {
  const read = readBudgetSpec(text);
  if (isBudgetProblem(read)) throw new ConfigError(field, read.problem, read.hint);
  return read;
}

/** A list of budget specs, e.g. "25%,50%,100%" or ["25%", "50%"], or the first problem. Duplicates are refused. */
export function readBudgetList(input: string | readonly string[]): BudgetSpec[] | BudgetSpecProblem {
  const parts = (typeof input === "string" ? input.split(",") : input).filter((part) => part.trim() !== "");
  if (parts.length === 0) return { problem: "at least one budget is required" };
  const specs: BudgetSpec[] = [];
  for (const part of parts) {
    const read = readBudgetSpec(part);
    if (isBudgetProblem(read)) return read;
    if (specs.some((spec) => spec.label === read.label)) return { problem: `budget "${read.label}" is listed twice` };
    specs.push(read);
  }
  return specs;
}

/** Parse a comma-separated list of budget specs, e.g. "25%,50%,100%". Duplicates are refused. */
export function parseBudgetList(text: string, field = "budget"): BudgetSpec[] {
  const read = readBudgetList(text);
  if (isBudgetProblem(read)) throw new ConfigError(field, read.problem, read.hint);
  return read;
}

/** Where a budget sits on one axis: turns for absolute budgets, the fraction of the reference for percentages. */
export function budgetSize(spec: BudgetSpec): number {
  return spec.kind === "turns" ? spec.turns : spec.numerator / spec.denominator;
}

/** The largest budget of a list; all budgets must be of one kind (turns and percentages do not compare). */
export function largestBudget(budgets: readonly BudgetSpec[], field = "budgets"): BudgetSpec {
  if (budgets.length === 0) throw new ConfigError(field, "at least one budget is required");
  if (new Set(budgets.map((spec) => spec.kind)).size > 1) throw new ConfigError(field, "budgets of two kinds (turns and percentages) have no largest one", "use all turns, or all percentages");
  return budgets.reduce((best, spec) => (budgetSize(spec) > budgetSize(best) ? spec : best));
}

/** Turns allowed for a task whose reference budget is `reference`: ceil(fraction * reference), at least 1. */
export function resolveTurns(spec: BudgetSpec, reference: number): number {
  if (spec.kind === "turns") return spec.turns;
  if (!(Number.isInteger(reference) && reference >= 1)) throw new RangeError(`reference budget must be a positive integer, got ${reference}`);
  // Integer numerator and denominator: the quotient is exact when it divides, and otherwise at least
  // 1/denominator away from an integer, so the float ceil is exact.
  return Math.max(1, Math.ceil((spec.numerator * reference) / spec.denominator));
}

export function resolveBudget(spec: BudgetSpec, reference: number, mode: BudgetMode, scope: BudgetScope = "episode"): Budget {
  return { turns: resolveTurns(spec, reference), mode, scope, label: spec.label };
}

export function parseBudgetMode(text: string, field = "budget-mode"): BudgetMode {
  if ((BUDGET_MODES as readonly string[]).includes(text)) return text as BudgetMode;
  throw new ConfigError(field, `"${text}" is not a budget mode`, `use one of ${BUDGET_MODES.join(", ")}`);
}
