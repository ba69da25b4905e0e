// The Pass@(K,T) table as people read it: one row per K, one column per budget T, each cell the estimate with
// its bootstrap interval, and the area under the curve (AUC over T) in the last column.
import type { PassAtKTTable, PassCell } from "../metrics/pass-at-kt.js";
import { renderTextTable } from "./text-table.js";

function formatCell(cell: PassCell | null, withInterval: boolean): string {
  if (cell === null || Number.isNaN(cell.value)) return "-";
  const value = cell.value.toFixed(3);
  if (!withInterval || Number.isNaN(cell.low)) return value;
  return `${value} [${cell.low.toFixed(3)}, ${cell.high.toFixed(3)}]`;
}

export function renderPassTable(table: PassAtKTTable): string {
  const withInterval = table.bootstrap > 0;
  const header = ["K \\ T", ...table.budgets.map((spec) => spec.label), "AUC"];
  const rows = table.ks.map((k, i) => [
    String(k),
    ...(table.cells[i] ?? []).map((cell) => formatCell(cell, withInterval)),
    formatCell(table.auc[i] ?? null, withInterval),
  ]);
  return renderTextTable(header, rows);
}

/** JSON form of the table (for --json and reports). */
export function passTableJson(table: PassAtKTTable): unknown {
  return {
    ks: table.ks,
    budgets: table.budgets.map((spec) => spec.label),
    tasks: table.tasks,
    minSamples: table.minSamples,
    bootstrap: table.bootstrap,
    cells: table.ks.map((k, i) =>
      table.budgets.map((budget, j) => ({ k, budget: budget.label, ...(table.cells[i]?.[j] as PassCell) })),
    ),
    auc: table.ks.map((k, i) => ({ k, ...(table.auc[i] ?? { value: null, low: null, high: null, tasks: 0 }) })),
  };
}
