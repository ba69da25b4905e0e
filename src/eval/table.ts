// Pass@(K,T) of a run from its outcomes, under either protocol: (a) "separate" reads each budget's own episodes;
// (b) "single" reads every requested T from the first-success turns of the one run at the largest T.
import { resolveTurns } from "../core/budget.js";
import { firstSuccesses, outcomeCounts } from "../store/episodes.js";
import type { Store } from "../store/store.js";
import { referenceBudgets } from "../store/runs.js";
import type { FirstSuccess, OutcomeCounts } from "../core/outcome.js";
import { countsWithinBudgets, passAtKT, type PassAtKTTable } from "../metrics/pass-at-kt.js";
import { budgetsToRun, type EvalConfig } from "./config.js";

export interface RunOutcomes {
  /** Protocol (a): counts per (task, budget). */
  readonly counts: readonly OutcomeCounts[];
  /** Protocol (b): first successes of the single run. */
  readonly firstSuccesses: readonly FirstSuccess[];
  /** Reference budget of each task (for resolving percentages under protocol b). */
  readonly referenceBudgets: ReadonlyMap<number, number>;
}

export function tableFor(config: Pick<EvalConfig, "protocol" | "budgets" | "ks" | "bootstrap" | "seed">, outcomes: RunOutcomes, ks: readonly number[] = config.ks): PassAtKTTable {
  const options = { ks, budgets: config.budgets, bootstrap: config.bootstrap, seed: config.seed };
  if (config.protocol === "separate") return passAtKT(outcomes.counts, options);
  const counts = countsWithinBudgets(outcomes.firstSuccesses, config.budgets, (taskIndex, spec) => resolveTurns(spec, outcomes.referenceBudgets.get(taskIndex) ?? 1));
  return passAtKT(counts, options);
}

/** The outcomes of a stored run, as `tableFor` reads them (protocol b: the single run at the largest budget). */
export async function storedRunOutcomes(store: Store, run: string, config: Pick<EvalConfig, "protocol" | "budgets">): Promise<RunOutcomes> {
  const references = await referenceBudgets(store, run);
  if (config.protocol === "separate") return { counts: await outcomeCounts(store, run), firstSuccesses: [], referenceBudgets: references };
  const [largest] = budgetsToRun(config);
  return { counts: [], firstSuccesses: await firstSuccesses(store, run, largest?.label ?? ""), referenceBudgets: references };
}
