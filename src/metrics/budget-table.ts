// The budget table, laid out like Table 1 of "What Does Multi-Turn RL Really Improve in LLM Agents?": one row
// per (model, budget mode), and for every budget T two columns, Pass@(1,T) and Pass@(K,T), read from each
// model's Pass@(K,T) table (pass-at-kt.ts) without recomputing anything:
//   row(model, mode)[T] = { pass1: cell(K = 1, T), passK: cell(K, T) }
// Budgets: the labels of any table, in axis order (25%, 50%, 75%, 100%). K: the largest K that every table
// holds (K > 1), unless given. Modes side by side (announced, remaining, hidden) answer "does the gain survive
// when the agent is not told its budget?".
// Edge cases: a table without the budget or K gives null in that column; no K > 1 common to every table gives
// k = null and only Pass@1 columns; rows keep the order of the entries.
import type { PassAtKTTable, PassCell } from "./pass-at-kt.js";
import { orderBudgetLabels } from "./budget-axis.js";

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
  readonly budgets: readonly string[];
  readonly k: number | null;
  readonly modes: readonly string[];
  readonly rows: readonly BudgetTableRow[];
}

function cellAt(table: PassAtKTTable, k: number, budget: string): PassCell | null {
  const i = table.ks.indexOf(k);
  const j = table.budgets.indexOf(budget);
  if (i < 0 || j < 0) return null;
  const cell = table.cells[i]?.[j];
  return cell === undefined || cell.tasks === 0 ? null : cell;
}

/** The largest K > 1 present in every table, or null. */
export function commonK(tables: readonly PassAtKTTable[]): number | null {
  if (tables.length === 0) return null;
  const shared = (tables[0] as PassAtKTTable).ks.filter((k) => k > 1 && tables.every((table) => table.ks.includes(k)));
  return shared.length === 0 ? null : Math.max(...shared);
}

export function budgetTable(entries: readonly BudgetTableEntry[], options: { readonly budgets?: readonly string[]; readonly k?: number } = {}): BudgetTable {
  const budgets = options.budgets ?? orderBudgetLabels(entries.flatMap((entry) => entry.table.budgets));
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
