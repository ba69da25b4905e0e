// Which demonstrated replies an SFT run trains on (`imitate`), per turn of each demonstration:
//   all       every reply;
//   optimal   the replies the oracle annotated optimal within the turns left;
//   bayes     as optimal where the policy sees the budget (announced, remaining), and where it cannot (hidden) the
//             budget-blind Bayes move over the demonstration budgets (hidden-budget-targets.ts): the move a policy
//             that sees only the history should make, instead of every budget's move in proportion.
// The other replies stay in their sequences as context.
import { resolveTurns, type BudgetScope, type BudgetSpec } from "../core/budget.js";
import type { AnyEnv } from "../core/env.js";
import type { Episode } from "../core/episode.js";
import { ConfigError, DataError } from "../core/errors.js";
import { policySpecLabel, type PolicySpec } from "../core/policy-spec.js";
import type { StoredTask } from "../store/runs.js";
import { hiddenBudgetTargets } from "./hidden-budget-targets.js";
import type { SftTargets } from "./sft-config.js";

/** Per turn of a demonstration (by position), whether its reply is a training target. */
export type TargetTurns = (episode: Episode) => readonly boolean[];

export const everyReply: TargetTurns = (episode) => episode.turns.map(() => true);
export const optimalReplies: TargetTurns = (episode) => episode.turns.map((turn) => turn.optimal === true);

/** A stored run of demonstrations, as the bayes targets need it. */
export interface DemonstrationRun {
  readonly env: AnyEnv;
  /** The demonstrator's policy spec. */
  readonly policy: PolicySpec;
  /** The budgets every task was demonstrated at, and what they count. */
  readonly budgets: readonly BudgetSpec[];
  readonly scope: BudgetScope;
  readonly tasks: ReadonlyMap<number, StoredTask>;
}

/** The noise of a budget-aware oracle demonstrator (bayes needs its likelihood of a move); refuses any other. */
export function demonstratorNoise(spec: PolicySpec, field = "policy"): number {
  if (spec.kind === "noisy-oracle") return spec.epsilon;
  if (spec.kind === "oracle" && spec.horizon === "turns-left") return 0;
  throw new ConfigError(
    field,
    `imitate bayes needs demonstrations of a budget-aware oracle, not ${policySpecLabel(spec)}`,
    "use noisy-oracle:EPS or oracle, or imitate optimal",
  );
}

/** The target turns of `imitate` for the demonstrations of one run. */
export function sftTargets(imitate: SftTargets, run: DemonstrationRun): TargetTurns {
  if (imitate === "all") return everyReply;
  if (imitate === "optimal") return optimalReplies;
  const epsilon = demonstratorNoise(run.policy);
  return (episode) => {
    if (episode.budget.mode !== "hidden") return optimalReplies(episode);
    const stored = run.tasks.get(episode.taskIndex);
    if (stored === undefined)
      throw new Error(`sftTargets: task ${episode.taskIndex} of the demonstrations is not stored`);
    const basis = { reference: stored.referenceBudget, optimal: stored.optimalTurns };
    const budgets = run.budgets.map((spec) => resolveTurns(spec, basis));
    const own = run.budgets.findIndex((spec) => spec.label === episode.budget.label);
    if (own < 0 || budgets[own] !== episode.budget.turns)
      throw new DataError(
        `demonstration of task ${episode.taskId} (sample ${episode.sample}) was played under budget ${episode.budget.label} in ${episode.budget.turns} turns, which the run's budgets (${run.budgets.map((spec) => spec.label).join(", ")}) do not give`,
        "the demonstrations were made with other budgets or another version of the env: make them again",
      );
    return hiddenBudgetTargets(run.env, run.env.tasks.decode(stored.task), episode, budgets, epsilon, run.scope);
  };
}
