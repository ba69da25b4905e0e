// A stored run as the view reads it: its record and its config decoded once (budgets as BudgetSpec values, the policy
// as a spec), or, when this budgetrl cannot read the stored config, the reason, shown instead of the run's tables.
import { interventionText } from "../agent/interventions.js";
import { policySpecLabel } from "../core/policy-spec.js";
import { thrownMessage } from "../core/errors.js";
import { parseEvalConfig, type EvalConfig } from "../eval/config.js";
import type { RunRecord } from "../store/runs.js";

export interface RunFacts {
  readonly record: RunRecord;
  /** The decoded config; null when it could not be read (then `problem` says why). */
  readonly config: Readonly<EvalConfig> | null;
  readonly problem: string | null;
}

export function runFacts(record: RunRecord): RunFacts {
  try {
    return { record, config: parseEvalConfig(record.config), problem: null };
  } catch (error) {
    return {
      record,
      config: null,
      problem: `its stored config cannot be read by this budgetrl: ${thrownMessage(error)}`,
    };
  }
}

/** The budget mode in words ("announced", "hidden, per user turn"), or "?" without a config. */
export function budgetModeText(facts: RunFacts): string {
  const config = facts.config;
  if (config === null) return "?";
  return `${config.budgetMode}${config.budgetScope === "user-turn" ? ", per user turn" : ""}`;
}

/** What sets the run apart besides its policy: its intervention, when it has one ("" otherwise). */
export function interventionOf(facts: RunFacts): string {
  const config = facts.config;
  return config === null || config.intervention.kind === "none" ? "" : interventionText(config.intervention);
}

/** The policy as the run's config names it (the stored label when the config cannot be read). */
export const policyText = (facts: RunFacts): string =>
  facts.config === null ? facts.record.policy : policySpecLabel(facts.config.policy);
