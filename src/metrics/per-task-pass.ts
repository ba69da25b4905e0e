// Per-task Pass@K at one budget, the per-task values behind a Pass@(K,T) cell (pass-at-kt.ts averages them):
//   v_t = pass@K(n_t,T, c_t,T)        for every task with n_t,T >= K episodes under budget T
// Paired comparisons of two models (paired-difference.ts) use these maps. Unlike a Pass@(K,T) table, which keeps
// one task set for the whole curve, a task counts here as soon as it has K samples at this budget.
// Edge cases: a budget no task reached gives an empty map; counts of one task split over several rows (several
// runs) are added up first.
import type { OutcomeCounts } from "../core/outcome.js";
import { passAtK } from "./pass-at-k.js";

export function perTaskPassAtK(counts: Iterable<OutcomeCounts>, k: number, budget: string): Map<number, number> {
  const totals = new Map<number, { n: number; c: number }>();
  for (const entry of counts) {
    if (entry.budget !== budget) continue;
    const total = totals.get(entry.taskIndex);
    if (total === undefined) totals.set(entry.taskIndex, { n: entry.n, c: entry.c });
    else {
      total.n += entry.n;
      total.c += entry.c;
    }
  }
  const out = new Map<number, number>();
  for (const [task, total] of [...totals].sort((x, y) => x[0] - y[0]))
    if (total.n >= k) out.set(task, passAtK(total.n, total.c, k));
  return out;
}
