// Turn budgets: how many agent turns an episode may take, and what the agent is told about it.
// A budget is part of the rollout, not of the env: the same task can be played at 25% or at 100%.
//   spec "8"    -> 8 turns
//   spec "25%"  -> ceil(0.25 * reference budget of the task), at least 1 (exact rational arithmetic)
//   spec "1.5x" -> ceil(1.5 * optimal length of the task), at least 1: slack over each task's optimum, for task
//                  sets whose optimal lengths differ (envs that know their optimum: env.tasks.optimalTurns)
// Modes: announced (total and remaining stated), remaining (only turns left), hidden (no text; cut at T).
// Scope: "episode" counts every turn; "user-turn" restarts the count at each new user turn (BFCL).
// Bounds: at most 10,000 turns, 1000% of the reference and 100x the optimum; larger budgets are refused when
// parsed (an episode keeps its whole conversation in memory, so `--budget 9999999` would exhaust it rather than
// measure).
import { ConfigError } from "./errors.js";
import type { TaskSource } from "./task-source.js";

export const BUDGET_MODES = ["announced", "remaining", "hidden"] as const;
export type BudgetMode = (typeof BUDGET_MODES)[number];
export const BUDGET_SCOPES = ["episode", "user-turn"] as const;
export type BudgetScope = (typeof BUDGET_SCOPES)[number];

/** A budget as the user wrote it: absolute turns, a percentage of the reference budget or a multiple of the
 * optimal length (both kept as exact fractions). */
export type BudgetSpec =
  | { readonly kind: "turns"; readonly turns: number; readonly label: string }
  | { readonly kind: "fraction"; readonly numerator: number; readonly denominator: number; readonly label: string }
  | { readonly kind: "multiple"; readonly numerator: number; readonly denominator: number; readonly label: string };

export type BudgetKind = BudgetSpec["kind"];

/** What a task's budgets are sized by: its reference budget (100%) and its optimal length (1x; null when the env
 * cannot say). */
export interface BudgetBasis {
  readonly reference: number;
  readonly optimal: number | null;
}

/** The budget of one rollout, resolved for its task. */
export interface Budget {
  readonly turns: number;
  readonly mode: BudgetMode;
  readonly scope: BudgetScope;
  /** The spec it came from ("8", "25%"): the label tables and the store group by. */
  readonly label: string;
}

const PERCENT = /^(\d{1,4})(?:\.(\d{1,4}))?%$/;
const MULTIPLE = /^(\d{1,3})(?:\.(\d{1,3}))?x$/;
const TURNS = /^\d+$/;
/** The largest turn budget, the largest percentage of a task's reference budget, the largest multiple of its optimum. */
export const MAX_BUDGET_TURNS = 10_000;
export const MAX_BUDGET_PERCENT = 1000;
export const MAX_BUDGET_MULTIPLE = 100;

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
    if (turns > MAX_BUDGET_TURNS)
      return {
        problem: `a turn budget of ${trimmed} is above the largest, ${MAX_BUDGET_TURNS} turns`,
        hint: `every turn of an episode is kept in memory; use at most ${MAX_BUDGET_TURNS}, or a percentage of the task's reference budget ("100%")`,
      };
    return { kind: "turns", turns, label: String(turns) };
  }
  const match = PERCENT.exec(trimmed);
  if (match !== null) {
    const decimals = match[2] ?? "";
    const denominator = 100 * 10 ** decimals.length;
    const numerator = Number(`${match[1]}${decimals}`);
    if (numerator === 0) return { problem: `a percentage budget must be above 0%, got "${text}"` };
    if (numerator > MAX_BUDGET_PERCENT * 10 ** decimals.length)
      return { problem: `a budget of ${trimmed} is above the largest, ${MAX_BUDGET_PERCENT}% of the reference budget` };
    return { kind: "fraction", numerator, denominator, label: trimmed };
  }
  const multiple = MULTIPLE.exec(trimmed);
  if (multiple !== null) {
    const decimals = multiple[2] ?? "";
    const denominator = 10 ** decimals.length;
    const numerator = Number(`${multiple[1]}${decimals}`);
    if (numerator === 0) return { problem: `a multiple of the optimal length must be above 0x, got "${text}"` };
    if (numerator > MAX_BUDGET_MULTIPLE * denominator)
      return { problem: `a budget of ${trimmed} is above the largest, ${MAX_BUDGET_MULTIPLE}x the optimal length` };
    return { kind: "multiple", numerator, denominator, label: trimmed };
  }
  return {
    problem: `"${text}" is not a budget`,
    hint: `write a number of turns ("8"), a percentage of the task's reference budget ("25%") or a multiple of its optimal length ("1.5x")`,
  };
}

export function isBudgetProblem<T extends object>(value: T | BudgetSpecProblem): value is BudgetSpecProblem {
  return !Array.isArray(value) && "problem" in value;
}

/** Parse "8", "25%" (or "12.5%") or "1.5x". `field` names the option in the error message. */
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

/** Where a budget sits on one axis: turns for absolute budgets, the fraction of the reference for percentages,
 * the multiple of the optimum for multiples. */
export function budgetSize(spec: BudgetSpec): number {
  return spec.kind === "turns" ? spec.turns : spec.numerator / spec.denominator;
}

/** Each budget by its label: how rows that carry a budget's label (stored episodes, played episodes) get their spec
 * back from the budgets they were played under, without reading the label again. */
export function budgetsByLabel(budgets: readonly BudgetSpec[]): ReadonlyMap<string, BudgetSpec> {
  return new Map(budgets.map((spec) => [spec.label, spec]));
}

/** What the budgets of one kind are counted in, for axis titles and messages. */
export function budgetUnit(kind: BudgetKind): string {
  return kind === "turns"
    ? "turns"
    : kind === "fraction"
      ? "fraction of the reference budget"
      : "multiple of the optimal length";
}

/** The one kind of a list of budgets, or null when it mixes kinds (they do not compare). */
export function budgetKindOf(budgets: readonly BudgetSpec[]): BudgetKind | null {
  const kinds = new Set(budgets.map((spec) => spec.kind));
  return kinds.size === 1 ? budgets[0]!.kind : null;
}

/** The largest budget of a list; all budgets must be of one kind (turns, percentages and multiples do not compare). */
export function largestBudget(budgets: readonly BudgetSpec[], field = "budgets"): BudgetSpec {
  if (budgets.length === 0) throw new ConfigError(field, "at least one budget is required");
  if (budgetKindOf(budgets) === null)
    throw new ConfigError(
      field,
      "budgets of two kinds (turns, percentages, multiples of the optimum) have no largest one",
      "use one kind for all of them",
    );
  return budgets.reduce((best, spec) => (budgetSize(spec) > budgetSize(best) ? spec : best));
}

/** The basis of a task the store holds none for (a turn budget needs none): 1 turn, optimum unknown. */
export const UNKNOWN_BASIS: BudgetBasis = Object.freeze({ reference: 1, optimal: null });

/** The basis of a task's budgets under an env: its reference budget and, where the env knows it, its optimal length. */
export function taskBudgetBasis<TTask>(
  env: { readonly tasks: Pick<TaskSource<TTask>, "referenceBudget" | "optimalTurns"> },
  task: TTask,
  scope: BudgetScope,
): BudgetBasis {
  return { reference: env.tasks.referenceBudget(task, scope), optimal: env.tasks.optimalTurns?.(task, scope) ?? null };
}

/** ceil(numerator / denominator * size), at least 1. Integer numerator and denominator: the quotient is exact when
 * it divides, and otherwise at least 1/denominator away from an integer, so the float ceil is exact. */
function scaledTurns(numerator: number, denominator: number, size: number, what: string): number {
  if (!(Number.isInteger(size) && size >= 1)) throw new RangeError(`${what} must be a positive integer, got ${size}`);
  return Math.max(1, Math.ceil((numerator * size) / denominator));
}

/** Turns allowed for a task with this basis: the turns, ceil(fraction * reference) or ceil(multiple * optimal),
 * at least 1. A multiple needs the optimal length (envs without it are refused before a run: checkBudgetsFit). */
export function resolveTurns(spec: BudgetSpec, basis: BudgetBasis): number {
  if (spec.kind === "turns") return spec.turns;
  if (spec.kind === "fraction")
    return scaledTurns(spec.numerator, spec.denominator, basis.reference, "reference budget");
  if (basis.optimal === null)
    throw new ConfigError(
      "budgets",
      `budget ${spec.label} is a multiple of the optimal length, which this env cannot say`,
      "use turns or a percentage of the reference budget",
    );
  return scaledTurns(spec.numerator, spec.denominator, Math.max(1, basis.optimal), "optimal length");
}

export function resolveBudget(
  spec: BudgetSpec,
  basis: BudgetBasis,
  mode: BudgetMode,
  scope: BudgetScope = "episode",
): Budget {
  return { turns: resolveTurns(spec, basis), mode, scope, label: spec.label };
}

/** Refuse multiples of the optimum for an env that cannot give its tasks' optimal length (before any work). */
export function checkBudgetsFit(
  budgets: readonly BudgetSpec[],
  env: { readonly spec: { readonly name: string }; readonly tasks: Pick<TaskSource, "optimalTurns"> },
  field = "budgets",
): void {
  const multiple = budgets.find((spec) => spec.kind === "multiple");
  if (multiple !== undefined && env.tasks.optimalTurns === undefined)
    throw new ConfigError(
      field,
      `budget ${multiple.label} is a multiple of the optimal length, which env ${env.spec.name} cannot say`,
      "use turns or a percentage of the reference budget",
    );
}

export function parseBudgetMode(text: string, field = "budget-mode"): BudgetMode {
  if ((BUDGET_MODES as readonly string[]).includes(text)) return text as BudgetMode;
  throw new ConfigError(field, `"${text}" is not a budget mode`, `use one of ${BUDGET_MODES.join(", ")}`);
}
