// The budget table, laid out like Table 1 of "What Does Multi-Turn RL Really Improve in LLM Agents?": one row
// per (model, budget mode), and for every budget T two columns, Pass@(1,T) and Pass@(K,T), read from each
// model's Pass@(K,T) table (pass-at-kt.ts) without recomputing anything:
//   row(model, mode)[T] = { pass1: cell(K = 1, T), passK: cell(K, T) }
// Budgets: those of any table, in axis order (25%, 50%, 75%, 100%; budget-axis.ts). K: the K > 1 that the most
// tables hold (the larger on a tie), unless given. Modes side by side (announced, remaining, hidden) answer "does the gain survive
// when the agent is not told its budget?".
// Edge cases: a table without the budget or K gives null in that column; no table with a K > 1 gives k = null
// and only Pass@1 columns; rows keep the order of the entries.
import type { BudgetSpec } from "../core/budget.js";
import type { PassAtKTTable, PassCell } from "./pass-at-kt.js";
import { orderBudgets } from "./budget-axis.js";

export interface BudgetTableEntry {
  readonly model: string;
  readonly mode: string;
  readonly table: PassAtKTTable;
}

export interface BudgetTableRow {
  readonly model: string;
  readonly mode: string;
  /** One cell per budget of the table's `budgets` (null: not measured). */
  readonly pass1: readonly (PassCell | null)[];
  readonly passK: readonly (PassCell | null)[];
}

export interface BudgetTable {
  readonly budgets: readonly BudgetSpec[];
  readonly k: number | null;
  readonly modes: readonly string[];
  readonly rows: readonly BudgetTableRow[];
}

function cellAt(table: PassAtKTTable, k: number, budget: BudgetSpec): PassCell | null {
  const i = table.ks.indexOf(k);
  const j = table.budgets.findIndex((spec) => spec.label === budget.label);
  if (i < 0 || j < 0) return null;
  const cell = table.cells[i]?.[j];
  return cell === undefined || cell.tasks === 0 ? null : cell;
}

/** The K > 1 held by the most tables (the larger on a tie), or null when no table has one. */
export function commonK(tables: readonly PassAtKTTable[]): number | null {
  const counts = new Map<number, number>();
  for (const table of tables) for (const k of table.ks) if (k > 1) counts.set(k, (counts.get(k) ?? 0) + 1);
  let best: number | null = null;
  for (const [k, count] of counts)
    if (best === null || count > counts.get(best)! || (count === counts.get(best) && k > best)) best = k;
  return best;
}

export function budgetTable(
  entries: readonly BudgetTableEntry[],
  options: { readonly budgets?: readonly BudgetSpec[]; readonly k?: number } = {},
): BudgetTable {
  const budgets = options.budgets ?? orderBudgets(entries.flatMap((entry) => entry.table.budgets));
  const k = options.k ?? commonK(entries.map((entry) => entry.table));
  return {
    budgets,
    k,
    modes: [...new Set(entries.map((entry) => entry.mode))],
    rows: entries.map((entry) => ({
      model: entry.model,
      mode: entry.mode,
      pass1: budgets.map((budget) => cellAt(entry.table, 1, budget)),
      passK: budgets.map((budget) => (k === null ? null : cellAt(entry.table, k, budget))),
    })),
  };
}
