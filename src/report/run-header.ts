// The header of a run's table in the terminal: what was measured (env, policy, tasks x samples, budget mode and
// scope, protocol, seed), the estimand (means over the run's tasks, which are distinct by content: eval/tasks.ts)
// and how to read the intervals; under the table, the policy errors left out of it.
import { policySpecLabel } from "../core/policy-spec.js";
import type { EvalConfig } from "../eval/config.js";
import type { PassAtKTTable } from "../metrics/pass-at-kt.js";

export function runHeader(run: string, config: Readonly<EvalConfig>, table: PassAtKTTable): string {
  const protocol = config.protocol === "single" ? "one run at the largest T, read at every T" : "a separate run per T";
  const scope = config.budgetScope === "user-turn" ? ", per user turn" : "";
  const intervals =
    table.bootstrap > 0 ? `95% bootstrap intervals over tasks (${table.bootstrap} resamples)` : "no intervals";
  return [
    `run ${run}: ${config.env} | policy ${policySpecLabel(config.policy)} | ${table.tasks} tasks x ${table.minSamples} samples | budget ${config.budgetMode}${scope} | ${protocol} | seed ${config.seed}`,
    `Pass@(K,T): means over ${table.tasks} distinct tasks, ${intervals}; AUC = normalised area under the curve over T`,
  ].join("\n");
}

/** Episodes that ended in a policy error (not counted in the table), of how many. */
export interface PolicyErrorCount {
  readonly errors: number;
  readonly of: number;
}

/** The line under the table when some episodes ended in a policy error, else "". */
export function policyErrorLine(count: PolicyErrorCount): string {
  if (count.errors === 0) return "";
  return `policy errors: ${count.errors} of ${count.of} episodes ended in a policy error and are not counted in this table (the policy or its server failed, not the agent); --resume retries them`;
}
