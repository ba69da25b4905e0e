// The study report's tables for the terminal (`budgetrl show RUN --analyses`, `budgetrl report`): the budget
// table, step quality, natural and perturbation recovery, horizon and the findings, from the same StudyReport
// the HTML renders, so both show the same numbers.
import { pointsText } from "./claims/index.js";
import { seedText } from "./findings.js";
import type { JsonEstimate, StudyReport } from "./study-model.js";
import { renderTextTable } from "./text-table.js";

const LONG_LISTS = 12;

export function formatEstimate(estimate: JsonEstimate | null, scale: "fraction" | "percent" = "fraction"): string {
  if (estimate === null || estimate.value === null) return "-";
  const format = (value: number | null): string =>
    value === null ? "-" : scale === "percent" ? (100 * value).toFixed(1) : value.toFixed(3);
  return estimate.low === null
    ? format(estimate.value)
    : `${format(estimate.value)} [${format(estimate.low)}, ${format(estimate.high)}]`;
}

/** A long list keeps its first rows and says how many it left out. */
function capped(rows: string[][], width: number): string[][] {
  if (rows.length <= LONG_LISTS) return rows;
  return [
    ...rows.slice(0, LONG_LISTS),
    [`(${rows.length - LONG_LISTS} more)`, ...Array.from({ length: width - 1 }, () => "")],
  ];
}

/** The budget table of each env variant, each followed by its invalid-reply rates (same rows, one column per budget). */
export function renderBudgetTables(report: StudyReport): string {
  return report.budgetTables
    .map((table) => {
      const header = [
        "model",
        "budget",
        ...table.budgets.flatMap((budget) => [
          `${budget} P@1`,
          ...(table.k === null ? [] : [`${budget} P@${table.k}`]),
        ]),
      ];
      const rows = table.rows.map((row) => [
        row.model,
        row.mode,
        ...table.budgets.flatMap((_, j) => [
          formatEstimate(row.pass1[j] ?? null, "percent"),
          ...(table.k === null ? [] : [formatEstimate(row.passK[j] ?? null, "percent")]),
        ]),
      ]);
      const invalid = report.invalidReplies.find((entry) => entry.variant === table.variant);
      const invalidText =
        invalid === undefined || invalid.rows.length === 0
          ? ""
          : `\n\nInvalid replies, ${table.variant} (% of the policy's turns that could not be parsed or were not a valid action)\n${renderTextTable(
              ["model", "budget", ...invalid.budgets],
              invalid.rows.map((row) => [
                row.model,
                row.mode,
                ...invalid.budgets.map((_, j) => formatEstimate(row.rates[j] ?? null, "percent")),
              ]),
            )}`;
      const spread = report.seedSpread.filter((entry) => entry.variant === table.variant);
      const spreadText =
        spread.length === 0 ? "" : `\n\nSeeds that differ:\n${spread.map((entry) => `- ${entry.text}`).join("\n")}`;
      return `Budget table, ${table.variant} (Pass@1 and Pass@K in %, 95% intervals over tasks)\n${renderTextTable(header, rows)}${invalidText}${spreadText}`;
    })
    .join("\n\n");
}

/** Teacher-forced step quality of each model, env and budget mode, one column per budget (in %): how competent a
 * base is at single steps at every budget it is told (or not told) about. */
export function stepQualityByBudget(report: StudyReport): {
  readonly env: string;
  readonly budgets: readonly string[];
  readonly rows: readonly {
    readonly model: string;
    readonly mode: string;
    readonly overall: JsonEstimate;
    readonly cells: readonly (JsonEstimate | null)[];
  }[];
}[] {
  const taught = report.stepQuality.filter((entry) => entry.source === "teacher-forced");
  return [...new Set(taught.map((entry) => entry.env))].map((env) => {
    const entries = taught.filter((entry) => entry.env === env);
    const budgets = [...new Set(entries.flatMap((entry) => entry.byBudget.map((cell) => cell.budget)))];
    const rows = entries.map((entry) => ({
      model: entry.model,
      mode: entry.mode,
      overall: entry.overall,
      cells: budgets.map((budget) => entry.byBudget.find((cell) => cell.budget === budget)?.estimate ?? null),
    }));
    return { env, budgets, rows };
  });
}

/** The teacher-forced step quality tables, for the terminal. */
export function renderStepQualityByBudget(report: StudyReport): string {
  return stepQualityByBudget(report)
    .map(
      (table) =>
        `Step quality on the expert's states, ${table.env} (% of replies in the oracle's optimal set within the turns left; teacher-forced)\n${renderTextTable(
          ["model", "budget", "all", ...table.budgets],
          table.rows.map((row) => [
            row.model,
            row.mode,
            formatEstimate(row.overall, "percent"),
            ...row.cells.map((cell) => formatEstimate(cell, "percent")),
          ]),
        )}`,
    )
    .join("\n\n");
}

export function renderStepQuality(report: StudyReport): string {
  return report.stepQuality
    .map((entry) => {
      const title = `Step quality, ${entry.model} on ${entry.env} (${entry.mode}, ${entry.source === "self" ? "own states" : "teacher-forced states"}): share of actions in the oracle's optimal set`;
      const rows = [
        ["all turns", formatEstimate(entry.overall), String(entry.overall.tasks), String(entry.overall.n)],
        ...entry.byBudget.map((cell) => [
          `budget ${cell.budget}`,
          formatEstimate(cell.estimate),
          String(cell.estimate.tasks),
          String(cell.estimate.n),
        ]),
      ];
      const left = capped(
        entry.byTurnsLeft
          .slice()
          .reverse()
          .map((cell) => [
            `${cell.turnsLeft} turns left`,
            formatEstimate(cell.estimate),
            String(cell.estimate.tasks),
            String(cell.estimate.n),
          ]),
        4,
      );
      return `${title}\n${renderTextTable(["", "optimal", "tasks", "turns"], [...rows, ...left])}`;
    })
    .join("\n\n");
}

export function renderRecovery(report: StudyReport): string {
  const natural = report.recovery.map((entry) => {
    const rows = [...entry.perBudget, entry.pooled].map((cells) => [
      cells.budget === "pooled" ? "all budgets" : cells.budget,
      formatEstimate(cells.errorRate),
      formatEstimate(cells.anyError),
      formatEstimate(cells.clean),
    ]);
    const turns = capped(
      entry.pooled.byFirstError.map((cell) => [
        `first mistake at turn ${cell.turn}`,
        formatEstimate(cell.estimate),
        String(cell.estimate.tasks),
        String(cell.estimate.n),
      ]),
      4,
    );
    return `Natural recovery, ${entry.model} on ${entry.env} (${entry.mode})\n${renderTextTable(["budget", "episodes with a mistake", "success after a mistake", "success without one"], rows)}\n\n${renderTextTable(["all budgets", "success", "tasks", "episodes"], turns)}`;
  });
  const perturbed = report.perturbation.map((entry) => {
    if (entry.problem !== null && entry.cells.length === 0)
      return `Recovery from a forced mistake, ${entry.model}, run ${entry.run} (j = ${entry.perturbTurn}): ${entry.problem}`;
    const rows = entry.cells.map((cell) => [
      cell.budget === "pooled" ? "all budgets" : cell.budget,
      String(cell.episodes),
      formatEstimate(cell.recovery),
    ]);
    return `Recovery from a forced mistake, ${entry.model} on ${entry.env}, run ${entry.run} (the expert plays up to turn ${entry.perturbTurn}, one mistake is forced there, the model plays on)\n${renderTextTable(["budget", "episodes", "success after the mistake"], rows)}`;
  });
  return [...natural, ...perturbed].join("\n\n");
}

export function renderHorizon(report: StudyReport): string {
  return report.horizon
    .map((entry) => {
      const pooled = entry.byLength.find((curve) => curve.budget === "pooled");
      const budgets = entry.byLength.filter((curve) => curve.budget !== "pooled");
      const bins = pooled?.bins.map((bin) => bin.label) ?? [];
      const lengthRows = [...budgets, ...(pooled === undefined ? [] : [pooled])].map((curve) => [
        curve.budget === "pooled" ? "all budgets" : curve.budget,
        ...bins.map((label) => formatEstimate(curve.bins.find((bin) => bin.label === label)?.estimate ?? null)),
      ]);
      const ratioRows = entry.byRatio.map((bin) => [
        bin.label,
        formatEstimate(bin.estimate),
        String(bin.estimate.tasks),
        String(bin.estimate.n),
      ]);
      return `Horizon, ${entry.model} on ${entry.env} (${entry.mode}): success by optimal length\n${renderTextTable(["budget \\ length", ...bins], lengthRows)}\n\nsuccess by T / optimal length\n${renderTextTable(["ratio", "success", "tasks", "episodes"], ratioRows)}`;
    })
    .join("\n\n");
}

/** The plan's header line, then each finding: its verdict where the plan decides it, how the seeds and the
 * alternatives agree, the decided scope's numbers, and what was left out. */
export function renderFindings(report: StudyReport): string {
  const plan = report.plan;
  const header =
    plan === null
      ? []
      : [
          `Findings, as the analysis plan ${plan.hash.slice(0, 12)} says (${plan.fixedAt === null ? plan.source : `fixed ${plan.fixedAt}, before any stage ran`}; margin ${pointsText(plan.plan.smallestEffect.value)})${plan.changedAfterResults === null ? "" : `\nWARNING: ${plan.changedAfterResults}`}`,
        ];
  const findings = report.findings.map((finding) => {
    const decided = finding.scopes.find(
      (scope) => scope.seed === null && finding.decidedBy.startsWith(`${scope.scope},`),
    );
    const perSeed = finding.scopes.filter((scope) => scope.seed !== null);
    const seedLine =
      perSeed.length === 0
        ? []
        : [
            `  per seed: ${[...new Set(perSeed.map((scope) => scope.scope))]
              .map(
                (scope) =>
                  `${scope} ${perSeed
                    .filter((entry) => entry.scope === scope)
                    .map((entry) => `s${entry.seed} ${entry.verdict}`)
                    .join(", ")}`,
              )
              .join("; ")}`,
          ];
    const envLine = finding.scopes
      .filter((scope) => scope.seed === null && scope !== decided)
      .map((scope) => `  ${scope.scope} alone: ${scope.verdict}`);
    const replication =
      finding.replication === null
        ? []
        : [
            `  replication (halves fixed in the plan): ${finding.replication.halves.map((half) => `${seedText(half.seeds)} ${half.verdict}`).join("; ")}: ${finding.replication.replicated ? "replicated" : "does not replicate"}`,
          ];
    return [
      `[${finding.verdict}] ${finding.title}`,
      `  ${finding.summary}`,
      ...replication,
      ...(decided === undefined ? [] : [`  - ${decided.text}`]),
      ...envLine,
      ...seedLine,
      ...(finding.sensitivity.length === 0
        ? []
        : [
            `  sensitivity: ${finding.sensitivity.map((entry) => `${entry.alternative}: ${entry.verdict}`).join("; ")}`,
          ]),
      ...finding.notes.map((note) => `  note: ${note}`),
    ].join("\n");
  });
  const heldOut = report.heldOut.map((entry) => `Held-out tasks, ${entry.statement}`);
  return [...header, ...heldOut, ...findings].join("\n\n");
}

/** The analyses of a report (what `show --analyses` prints), each section only when it has data. */
export function renderAnalyses(report: StudyReport): string {
  return [renderStepQuality(report), renderRecovery(report), renderHorizon(report)]
    .filter((text) => text !== "")
    .join("\n\n");
}
