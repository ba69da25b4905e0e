// The analysis plan in words: one row per claim (its models, envs, statistic, rule and margin) and the plan-wide
// numbers with their reasons. The report's Findings section and docs/study.md's rule table are both made from these
// rows (test/report/plan-markdown.test.ts checks that the docs' table is the full preset's plan, rendered).
import { INTERVAL_METHOD_TEXT, type AnalysisPlan } from "./analysis-plan.js";
import { claimTest, pointsText } from "./claims/index.js";

export interface PlanRow {
  readonly claim: string;
  readonly models: string;
  readonly envs: string;
  readonly statistic: string;
  readonly rule: string;
  readonly margin: string;
}

/** The number of a claim as the paper counts them (the hidden-budget question is beyond it). */
const CLAIM_NUMBERS: Readonly<Record<string, string>> = {
  "rl-budgets": "1",
  "recovery-horizon": "2",
  process: "3",
  budgetmix: "4",
  "hidden-budget": "5",
};

export function planRows(plan: AnalysisPlan): PlanRow[] {
  return plan.claims.map((claim) => {
    const test = claimTest(claim);
    return {
      claim: `${CLAIM_NUMBERS[claim.id] ?? claim.id}. ${test.title}`,
      models: `${claim.a} - ${claim.b}`,
      envs: `${claim.envs.join(", ")}${claim.envs.length > 1 ? ", and pooled" : ""}`,
      statistic: test.statistic(claim),
      rule: test.rule(claim),
      margin: pointsText(claim.margin),
    };
  });
}

/** What the plan fixes for every claim, in sentences. */
export function planPreamble(plan: AnalysisPlan): string[] {
  return [
    `Verdicts are decided ${plan.decidedBy === "pooled" ? "pooled over the seeds and over each claim's envs (each env weighing the same)" : "per env, pooled over the seeds"}, with ${Math.round(100 * plan.level)}% intervals over seeds and tasks: ${INTERVAL_METHOD_TEXT}. Each seed's verdict and each env's are shown beside it, and a sensitivity table re-reads every claim with no margin, half and twice the margin, each env alone and the other budgets.`,
    plan.replication === null
      ? "One seed: no replication."
      : `Replication: the seeds are split before any run into seeds ${plan.replication.halves[0].join(", ")} and seeds ${plan.replication.halves[1].join(", ")}; a verdict replicates when each half alone, decided the same way, gives it, and is reported as not replicating, with both halves' verdicts, otherwise.`,
    `Smallest effect of interest: ${pointsText(plan.smallestEffect.value)}. ${plan.smallestEffect.reason}`,
    `Minimum range: ${pointsText(plan.minimumRange.value)}. ${plan.minimumRange.reason}`,
    "A comparison on which the two models give the same value on every task in every seed (both at the floor or the ceiling) shows nothing either way: it is left out of the verdict, with a note.",
  ];
}

const cell = (text: string): string => text.replace(/\|/g, "\\|");

/** The plan as a Markdown table with its preamble (docs/study.md's rule table). */
export function planMarkdown(plan: AnalysisPlan): string {
  const rows = planRows(plan).map(
    (row) => `| ${[row.claim, row.models, row.envs, row.statistic, row.rule, row.margin].map(cell).join(" | ")} |`,
  );
  return [
    ...planPreamble(plan).map((line) => `- ${line}`),
    "",
    "| claim | models | envs | statistic | verdict | margin |",
    "| --- | --- | --- | --- | --- | --- |",
    ...rows,
  ].join("\n");
}
