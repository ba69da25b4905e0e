// Turn budgets: how many agent turns an episode may take, and what the agent is told about it.
// A budget is part of the rollout, not of the env: the same task can be played at 25% or at 100%.
//   spec "8"   -> 8 turns
//   spec "25%" -> ceil(0.25 * reference budget of the task), at least 1 (exact rational arithmetic)
// Modes: announced (total and remaining stated), remaining (only turns left), hidden (no text; cut at T).
// Scope: "episode" counts every turn; "user-turn" restarts the count at each new user turn (BFCL).
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
const TURNS = /^\d{1,7}$/;

/** Parse "8" or "25%" (or "12.5%"). `field` names the option in the error message. */
export function parseBudgetSpec(text: string, field = "budget"): BudgetSpec {
  const trimmed = text.trim();
  if (TURNS.test(trimmed)) {
    const turns = Number(trimmed);
    if (turns < 1) throw new ConfigError(field, `a turn budget must be at least 1, got "${text}"`);
    return { kind: "turns", turns, label: String(turns) };
  }
  const match = PERCENT.exec(trimmed);
  if (match !== null) {
    const decimals = match[2] ?? "";
    const denominator = 100 * 10 ** decimals.length;
    const numerator = Number(`${match[1]}${decimals}`);
    if (numerator === 0) throw new ConfigError(field, `a percentage budget must be above 0%, got "${text}"`);
    return { kind: "fraction", numerator, denominator, label: trimmed };
  }
  throw new ConfigError(field, `"${text}" is not a budget`, `write a number of turns ("8") or a percentage of the task's reference budget ("25%")`);
}

/** Parse a comma-separated list of budget specs, e.g. "25%,50%,100%". Duplicates are refused. */
export function parseBudgetList(text: string, field = "budget"): BudgetSpec[] {
  const specs = text.split(",").filter((part) => part.trim() !== "").map((part) => parseBudgetSpec(part, field));
  if (specs.length === 0) throw new ConfigError(field, "at least one budget is required");
  const labels = new Set<string>();
  for (const spec of specs) {
    if (labels.has(spec.label)) throw new ConfigError(field, `budget "${spec.label}" is listed twice`);
    labels.add(spec.label);
  }
  return specs;
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
