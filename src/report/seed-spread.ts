// Every seed's Pass@1 beside the pooled one, so that a collapse in some seeds is seen before it is read as an effect:
// per budget table row (model, budget mode) and budget, each seed's Pass@1 (the mean over tasks of its own episodes)
// and its invalid-reply rate (metrics/invalid-replies.ts, without an interval); and a note for every row whose seeds
// differ by more than twice the plan's smallest effect at some budget, with each seed's Pass@1 and invalid replies
// where they differ most. A row pools its seeds' episodes per task (every seed plays the same tasks as often), so its
// pooled Pass@1 is the mean of the seeds' values.
import { invalidReplies } from "../metrics/invalid-replies.js";
import { perTaskPassAtK } from "../metrics/per-task-pass.js";
import type { StudyData } from "./study-data.js";
import type { StudyBudgetTable, StudySeedPoint, StudySeedSpread } from "./study-model.js";

const meanOf = (values: Iterable<number>): number | null => {
  let sum = 0;
  let count = 0;
  for (const value of values) {
    sum += value;
    count++;
  }
  return count === 0 ? null : sum / count;
};

/** One seed's Pass@1 and invalid-reply rate of a row at each budget. */
function seedRow(
  data: StudyData,
  seed: number,
  row: { readonly variant: string; readonly model: string; readonly mode: string },
  budgets: readonly string[],
): StudySeedPoint[] {
  const cells = data.passCells.filter(
    (cell) => cell.variant === row.variant && cell.model === row.model && cell.mode === row.mode,
  );
  const counts = cells.flatMap((cell) => cell.counts);
  const invalid = new Map(
    invalidReplies(
      cells.flatMap((cell) => cell.invalid),
      { bootstrap: 0 },
    ).map((rate) => [rate.budget, rate.estimate.value]),
  );
  return budgets.map((budget) => ({
    seed,
    pass1: meanOf(perTaskPassAtK(counts, 1, budget).values()),
    invalid: invalid.get(budget) ?? null,
  }));
}

/** Each row's seeds at each budget: points[row][budget][seed] (no seeds listed when the study has one). */
export function seedPointsOf(
  table: {
    readonly variant: string;
    readonly budgets: readonly string[];
    readonly rows: readonly { readonly model: string; readonly mode: string }[];
  },
  seeds: readonly { readonly seed: number; readonly data: StudyData }[],
): StudySeedPoint[][][] {
  return table.rows.map((row) => {
    if (seeds.length < 2) return table.budgets.map(() => []);
    const perSeed = seeds.map(({ seed, data }) =>
      seedRow(data, seed, { ...row, variant: table.variant }, table.budgets),
    );
    return table.budgets.map((_, j) => perSeed.map((points) => points[j]!));
  });
}

const points = (value: number | null): string => (value === null ? "-" : `${(100 * value).toFixed(1)}%`);

/** The rows whose seeds' Pass@1 differ by more than `threshold` at some budget, at the budget where they differ most. */
export function seedSpreads(tables: readonly StudyBudgetTable[], threshold: number): StudySeedSpread[] {
  return tables.flatMap((table) =>
    table.rows.flatMap((row) => {
      const spreads = row.seeds.map((budget) => {
        const values = budget.map((point) => point.pass1).filter((value): value is number => value !== null);
        return values.length < 2 ? 0 : Math.max(...values) - Math.min(...values);
      });
      const widest = spreads.indexOf(Math.max(...spreads, 0));
      if (widest < 0 || spreads[widest]! <= threshold + 1e-12) return [];
      const over = table.budgets.filter((_, j) => spreads[j]! > threshold + 1e-12);
      const at = row.seeds[widest]!;
      const text = `${row.model} on ${table.variant}, budget ${row.mode}: its seeds' Pass@1 differ by more than ${(100 * threshold).toFixed(0)} points (twice the plan's smallest effect) at ${over.join(", ")}; at ${table.budgets[widest]} by ${(100 * spreads[widest]!).toFixed(1)} points: ${at.map((point) => `seed ${point.seed} ${points(point.pass1)} (invalid replies ${points(point.invalid)})`).join(", ")}.`;
      return [
        {
          variant: table.variant,
          model: row.model,
          mode: row.mode,
          budget: table.budgets[widest]!,
          spread: spreads[widest]!,
          budgets: over,
          points: at,
          text,
        },
      ];
    }),
  );
}
