// Pass@(K,T) of a run from its outcomes, under either protocol: (a) "separate" reads each budget's own episodes;
// (b) "single" reads every requested T from the first-success turns of the one run at the largest T.
import { resolveTurns, UNKNOWN_BASIS, type BudgetBasis } from "../core/budget.js";
import { firstSuccesses, outcomeCounts } from "../store/episodes.js";
import type { Store } from "../store/store.js";
import { budgetBases } from "../store/runs.js";
import type { FirstSuccess, OutcomeCounts } from "../core/outcome.js";
import { countsWithinBudgets, passAtKT, type PassAtKTTable } from "../metrics/pass-at-kt.js";
import { budgetsToRun, type EvalConfig } from "./config.js";

export interface RunOutcomes {
  /** Protocol (a): counts per (task, budget). */
  readonly counts: readonly OutcomeCounts[];
  /** Protocol (b): first successes of the single run. */
  readonly firstSuccesses: readonly FirstSuccess[];
  /** Each task's budget basis, by index (what percentages and multiples resolve against). */
  readonly bases: ReadonlyMap<number, BudgetBasis>;
}

/** Successes and samples per (task, budget) as the table counts them: protocol (b) reads success within each T from
 * the first-success turns. */
export function countsOf(
  config: Pick<EvalConfig, "protocol" | "budgets">,
  outcomes: RunOutcomes,
): readonly OutcomeCounts[] {
  if (config.protocol === "separate") return outcomes.counts;
  return countsWithinBudgets(outcomes.firstSuccesses, config.budgets, (taskIndex, spec) =>
    resolveTurns(spec, outcomes.bases.get(taskIndex) ?? UNKNOWN_BASIS),
  );
}

export function tableFor(
  config: Pick<EvalConfig, "protocol" | "budgets" | "ks" | "bootstrap" | "seed">,
  outcomes: RunOutcomes,
  ks: readonly number[] = config.ks,
): PassAtKTTable {
  const options = { ks, budgets: config.budgets, bootstrap: config.bootstrap, seed: config.seed };
  return passAtKT(countsOf(config, outcomes), options);
}

/** The outcomes of a stored run, as `tableFor` reads them (protocol b: the single run at the largest budget). */
export async function storedRunOutcomes(
  store: Store,
  run: string,
  config: Pick<EvalConfig, "protocol" | "budgets">,
): Promise<RunOutcomes> {
  const bases = await budgetBases(store, run);
  if (config.protocol === "separate") return { counts: await outcomeCounts(store, run), firstSuccesses: [], bases };
  const [largest] = budgetsToRun(config);
  return { counts: [], firstSuccesses: await firstSuccesses(store, run, largest?.label ?? ""), bases };
}
