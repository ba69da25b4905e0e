// The report's charts, one function per section, each turning a part of the StudyReport into Vega-Lite specs:
// Pass@(K,T) heatmaps and curves, announced vs hidden, step quality, recovery and horizon (training-charts.ts and
// finding-chart.ts draw the training curves and the findings' forest plots; chart-fields.ts holds what they share).
import type { JsonObject } from "../../core/json.js";
import type { JsonEstimate, StudyReport } from "../study-model.js";
import { budgetLabelOrder } from "./budget-labels.js";
import { colourIn, enough, header, MIN_TASKS, modelNames, modesOf, row } from "./chart-fields.js";
import {
  bandedLines,
  barsWithIntervals,
  estimateFields,
  fitWidth,
  HEATMAP_CELL_WIDTH,
  HEATMAP_LEGEND_WIDTH,
  valueHeatmap,
  wrapColumns,
  type Chart,
} from "./chart-kit.js";
import { slug } from "./escape.js";

/** A heatmap panel's title: the model, and the budget mode when the report has more than one. */
const panelOf = (model: string, mode: string, modes: readonly string[]): string =>
  modes.length > 1 ? `${model} · ${mode}` : model;

/** Pass@(K,T) in %, one panel per model and budget mode wrapped into rows that fit the page (a model's modes
 * side by side), with a colour legend in %. */
function passHeatmap(
  report: StudyReport,
  variant: string,
  tables: StudyReport["passTables"],
  budgets: readonly string[],
  ks: readonly number[],
): Chart {
  const modes = modesOf(report);
  const panels = report.models.flatMap((model) => modes.map((mode) => panelOf(model.name, mode, modes)));
  const rows = tables.flatMap((table) =>
    table.ks.flatMap((k, i) =>
      table.budgets.map((budget, j) => {
        const estimate = table.cells[i]?.[j] as JsonEstimate;
        return {
          model: table.model,
          mode: table.mode,
          panel: panelOf(table.model, table.mode, modes),
          k,
          budget,
          ...estimateFields(estimate, "percent"),
          short: estimate.value === null ? "-" : (100 * estimate.value).toFixed(0),
        };
      }),
    ),
  );
  const shown = panels.filter((panel) => rows.some((entry) => entry["panel"] === panel));
  const columns = wrapColumns(shown.length, HEATMAP_CELL_WIDTH * budgets.length, {
    panelMargin: 35,
    reserve: HEATMAP_LEGEND_WIDTH,
    multiple: modes.length,
  });
  return {
    id: `heatmap-${slug(variant)}`,
    title: `Pass@(K,T) on ${variant}`,
    caption: `Pass@(K,T) in %, one panel per model${modes.length > 1 ? " and budget mode" : ""}; darker is better. Hover a cell for its 95% interval.`,
    spec: valueHeatmap(rows, {
      x: { field: "budget", type: "ordinal", sort: [...budgets], title: "budget T" },
      y: { field: "k", type: "ordinal", sort: [...ks], title: "K" },
      colorTitle: "Pass@(K,T) (%)",
      // Long model names are cut to their panel's width rather than spill over the next panel.
      facets: {
        wrap: {
          facet: {
            ...header("panel", "", shown),
            header: { labelFontSize: 12, labelFontWeight: 600, labelLimit: HEATMAP_CELL_WIDTH * budgets.length + 30 },
          },
          columns,
        },
      },
      columns: budgets.length,
      rowsCount: ks.length,
    }),
  };
}

export function passCharts(report: StudyReport): Chart[] {
  const models = modelNames(report);
  const modes = modesOf(report);
  const charts: Chart[] = [];
  for (const variant of [...new Set(report.passTables.map((table) => table.variant))]) {
    const tables = report.passTables.filter((table) => table.variant === variant);
    const budgets = budgetLabelOrder(tables.flatMap((table) => table.budgets));
    const ks = [...new Set(tables.flatMap((table) => table.ks))].sort((a, b) => a - b);
    const rows = tables.flatMap((table) =>
      table.ks.flatMap((k, i) =>
        table.budgets.map((budget, j) =>
          row({ model: table.model, mode: table.mode, k, budget }, table.cells[i]?.[j] as JsonEstimate),
        ),
      ),
    );
    const id = slug(variant);
    charts.push(passHeatmap(report, variant, tables, budgets, ks));
    if (ks.length > 1)
      charts.push({
        id: `pass-k-${id}`,
        title: `Pass@K at each budget T on ${variant}`,
        caption: "More samples K help most where single attempts fail; bands are 95% bootstrap intervals over tasks.",
        spec: bandedLines(
          rows.filter((entry) => entry["value"] !== null),
          {
            x: {
              field: "k",
              type: "quantitative",
              title: "K",
              scale: { type: "log", base: 2 },
              axis: { values: ks, format: "d" },
            },
            y: "Pass@(K,T)",
            color: colourIn(
              models,
              rows.filter((entry) => entry["value"] !== null),
            ),
            facets: {
              column: header("budget", "budget T", budgets),
              ...(modes.length > 1 ? { row: header("mode", "", modes) } : {}),
            },
            width: fitWidth(budgets.length, 170),
            height: 140,
            yDomain: [0, 1],
          },
        ),
      });
    charts.push({
      id: `pass-t-${id}`,
      title: `Pass@T for each K on ${variant}`,
      caption: "How success grows with the turn budget; the first point is the tightest budget.",
      spec: bandedLines(
        rows.filter((entry) => entry["value"] !== null),
        {
          x: { field: "budget", type: "ordinal", sort: budgets, title: "budget T", axis: { labelAngle: 0 } },
          y: "Pass@(K,T)",
          color: colourIn(
            models,
            rows.filter((entry) => entry["value"] !== null),
          ),
          facets: { column: header("k", "K", ks), ...(modes.length > 1 ? { row: header("mode", "", modes) } : {}) },
          width: fitWidth(ks.length, 170),
          height: 140,
          yDomain: [0, 1],
        },
      ),
    });
  }
  return charts;
}

/** Pass@(1,T) with the budget announced and hidden, side by side. */
export function hiddenCharts(report: StudyReport): Chart[] {
  const models = modelNames(report);
  const modes = modesOf(report);
  if (modes.length < 2) return [];
  return [...new Set(report.passTables.map((table) => table.variant))].map((variant) => {
    const tables = report.passTables.filter((table) => table.variant === variant);
    const budgets = budgetLabelOrder(tables.flatMap((table) => table.budgets));
    const rows = tables.flatMap((table) =>
      table.ks.includes(1)
        ? table.budgets.map((budget, j) =>
            row(
              { model: table.model, mode: table.mode, budget },
              table.cells[table.ks.indexOf(1)]?.[j] as JsonEstimate,
            ),
          )
        : [],
    );
    return {
      id: `hidden-${slug(variant)}`,
      title: `Announced vs hidden budgets on ${variant}: Pass@(1,T)`,
      caption:
        "Left: the agent is told its budget; right: it is not. A model that only wins when told relies on the announcement.",
      spec: bandedLines(
        rows.filter((entry) => entry["value"] !== null),
        {
          x: { field: "budget", type: "ordinal", sort: budgets, title: "budget T", axis: { labelAngle: 0 } },
          y: "Pass@(1,T)",
          color: colourIn(
            models,
            rows.filter((entry) => entry["value"] !== null),
          ),
          facets: { column: header("mode", "", modes) },
          width: 260,
          height: 170,
          yDomain: [0, 1],
        },
      ),
    };
  });
}

/** A step-quality entry's identity in a chart row. */
function stepKey(entry: StudyReport["stepQuality"][number]): JsonObject {
  return { model: entry.model, env: entry.env, mode: entry.mode, source: entry.source };
}

/** The step-quality charts' rows: overall, by turn index, and by turns left per budget. */
function stepRows(
  report: StudyReport,
  modes: readonly string[],
): { overall: JsonObject[]; byTurn: JsonObject[]; byLeft: JsonObject[] } {
  const overall = report.stepQuality.map((entry) => row(stepKey(entry), entry.overall));
  const byTurn = report.stepQuality.flatMap((entry) =>
    entry.byTurn
      .filter((cell) => enough(cell.estimate))
      .map((cell) => row({ ...stepKey(entry), turn: cell.turn }, cell.estimate)),
  );
  // Turns left per budget (pooled, turns left t would mix a budget's first turns with larger budgets' later ones).
  const byLeft = report.stepQuality.flatMap((entry) =>
    entry.byBudgetAndTurnsLeft
      .filter((cell) => enough(cell.estimate))
      .map((cell) =>
        row(
          {
            ...stepKey(entry),
            budget: cell.budget,
            panel: modes.length > 1 ? `${entry.env} · ${entry.mode}` : entry.env,
            turnsLeft: cell.turnsLeft,
          },
          cell.estimate,
        ),
      ),
  );
  return { overall, byTurn, byLeft };
}

export function stepCharts(report: StudyReport): Chart[] {
  if (report.stepQuality.length === 0) return [];
  const models = modelNames(report);
  const envs = [...new Set(report.stepQuality.map((entry) => entry.env))];
  const modes = [...new Set(report.stepQuality.map((entry) => entry.mode))];
  const facets = { column: header("env", "", envs), ...(modes.length > 1 ? { row: header("mode", "", modes) } : {}) };
  const { overall, byTurn, byLeft } = stepRows(report, modes);
  const leftBudgets = budgetLabelOrder(byLeft.map((cell) => String(cell["budget"])));
  const panels = [...new Set(byLeft.map((cell) => String(cell["panel"])))];
  const sources = [...new Set(report.stepQuality.map((entry) => entry.source))];
  const dash = {
    field: "source",
    type: "nominal",
    title: "states",
    scale: { domain: sources, range: sources.map((source) => (source === "self" ? [1, 0] : [5, 3])) },
    ...(sources.length === 1 ? { legend: null } : {}),
  };
  return [
    {
      id: "step-overall",
      title: "Single-step decision quality",
      caption:
        "Share of actions in the oracle's optimal set, averaged over tasks (own states; teacher-forced states when present).",
      spec: barsWithIntervals(overall, {
        x: { field: "source", type: "nominal", title: "states", axis: { labelAngle: 0 } },
        offset: { field: "model", sort: models },
        y: "optimal actions",
        color: colourIn(models, overall),
        facets,
      }),
    },
    {
      id: "step-turn",
      title: "Step quality by turn index",
      caption: `Later turns are reached by fewer tasks (cells with fewer than ${MIN_TASKS} tasks are not drawn).`,
      spec: bandedLines(byTurn, {
        x: { field: "turn", type: "quantitative", title: "turn" },
        y: "optimal actions",
        color: colourIn(models, byTurn),
        strokeDash: dash,
        facets,
        yDomain: [0, 1],
        independentX: true,
        points: false,
      }),
    },
    {
      id: "step-left",
      title: "Step quality by turns left in the budget",
      caption:
        "Does the policy decide differently when the budget runs out? One panel per budget; x = turns left, this one included.",
      spec: bandedLines(byLeft, {
        x: { field: "turnsLeft", type: "quantitative", title: "turns left", scale: { reverse: true } },
        y: "optimal actions",
        color: colourIn(models, byLeft),
        strokeDash: dash,
        facets: { column: header("budget", "budget T", leftBudgets), row: header("panel", "", panels) },
        width: fitWidth(leftBudgets.length, 170),
        height: 140,
        yDomain: [0, 1],
        independentX: true,
        points: false,
      }),
    },
  ];
}

/** Natural recovery: success after the first mistake, by its turn and by budget. */
function naturalRecoveryCharts(report: StudyReport, models: readonly string[]): Chart[] {
  if (report.recovery.length === 0) return [];
  const envs = [...new Set(report.recovery.map((entry) => entry.env))];
  const modes = [...new Set(report.recovery.map((entry) => entry.mode))];
  const facets = { column: header("env", "", envs), ...(modes.length > 1 ? { row: header("mode", "", modes) } : {}) };
  const byTurn = report.recovery.flatMap((entry) =>
    entry.pooled.byFirstError
      .filter((cell) => enough(cell.estimate))
      .map((cell) => row({ model: entry.model, env: entry.env, mode: entry.mode, turn: cell.turn }, cell.estimate)),
  );
  const budgets = budgetLabelOrder(report.recovery.flatMap((entry) => entry.perBudget.map((cells) => cells.budget)));
  const rates = report.recovery.flatMap((entry) =>
    entry.perBudget.map((cells) =>
      row({ model: entry.model, env: entry.env, mode: entry.mode, budget: cells.budget }, cells.anyError),
    ),
  );
  return [
    {
      id: "recovery-turn",
      title: "Natural recovery: success after the first mistake, by its turn",
      caption:
        "Among episodes whose first non-optimal action came at turn j, the share that still succeeded within the budget (all budgets).",
      spec: bandedLines(byTurn, {
        x: { field: "turn", type: "quantitative", title: "turn of the first mistake" },
        y: "success",
        color: colourIn(models, byTurn),
        facets,
        yDomain: [0, 1],
        independentX: true,
      }),
    },
    {
      id: "recovery-budget",
      title: "Recovery rate by budget",
      caption: "Success of the episodes that made at least one mistake; tight budgets leave no room to recover.",
      spec: barsWithIntervals(rates, {
        x: { field: "budget", type: "ordinal", sort: budgets, title: "budget T", axis: { labelAngle: 0 } },
        offset: { field: "model", sort: models },
        y: "success after a mistake",
        color: colourIn(models, rates),
        facets,
      }),
    },
  ];
}

/** Recovery from one forced mistake, on the same perturbed states for every model. */
function perturbationCharts(report: StudyReport, models: readonly string[]): Chart[] {
  const perturbed = report.perturbation.flatMap((entry) =>
    entry.cells
      .filter((cell) => cell.budget === "pooled")
      .map((cell) =>
        row(
          { model: entry.model, env: entry.env, mode: entry.mode, turn: entry.perturbTurn, episodes: cell.episodes },
          cell.recovery,
        ),
      ),
  );
  if (perturbed.length === 0) return [];
  const envs = [...new Set(report.perturbation.map((entry) => entry.env))];
  return [
    {
      id: "recovery-perturbation",
      title: "Recovery from one forced mistake, on the same states for every model",
      caption:
        "The expert plays up to turn j, one random non-optimal action is forced at j, then the model plays on: success within the budget (every model meets the same perturbed states).",
      spec: {
        data: { values: perturbed },
        facet: { column: header("env", "", envs) },
        spec: {
          width: 300,
          height: 170,
          layer: [
            {
              mark: { type: "rule", strokeWidth: 2 },
              encoding: {
                x: { field: "turn", type: "ordinal", title: "forced mistake at turn j", axis: { labelAngle: 0 } },
                xOffset: { field: "model", sort: models },
                y: {
                  field: "low",
                  type: "quantitative",
                  title: "success after the mistake",
                  scale: { domain: [0, 1] },
                },
                y2: { field: "high" },
                color: colourIn(models, perturbed),
              },
            },
            {
              mark: { type: "point", filled: true, size: 60 },
              encoding: {
                x: { field: "turn", type: "ordinal" },
                xOffset: { field: "model", sort: models },
                y: { field: "value", type: "quantitative" },
                color: colourIn(models, perturbed),
                tooltip: [
                  { field: "model" },
                  { field: "label", title: "success [95% CI]" },
                  { field: "episodes" },
                  { field: "tasks" },
                ],
              },
            },
          ],
        },
      },
    },
  ];
}

export function recoveryCharts(report: StudyReport): Chart[] {
  const models = modelNames(report);
  return [...naturalRecoveryCharts(report, models), ...perturbationCharts(report, models)];
}

export function horizonCharts(report: StudyReport): Chart[] {
  if (report.horizon.length === 0) return [];
  const models = modelNames(report);
  const envs = [...new Set(report.horizon.map((entry) => entry.env))];
  const modes = [...new Set(report.horizon.map((entry) => entry.mode))];
  const facets = { column: header("env", "", envs), ...(modes.length > 1 ? { row: header("mode", "", modes) } : {}) };
  const key = (entry: StudyReport["horizon"][number]): JsonObject => ({
    model: entry.model,
    env: entry.env,
    mode: entry.mode,
  });
  const lengths = report.horizon.flatMap((entry) =>
    (entry.byLength.find((curve) => curve.budget === "pooled")?.bins ?? [])
      .filter((bin) => enough(bin.estimate))
      .map((bin) => row({ ...key(entry), bin: bin.label, order: bin.low }, bin.estimate)),
  );
  const lengthOrder = [...new Map(lengths.map((entry) => [entry["bin"] as string, entry["order"] as number])).entries()]
    .sort((a, b) => a[1] - b[1])
    .map(([bin]) => bin);
  const ratios = report.horizon.flatMap((entry) =>
    entry.byRatio
      .filter((bin) => enough(bin.estimate))
      .map((bin) => row({ ...key(entry), bin: bin.label, order: bin.low }, bin.estimate)),
  );
  const ratioOrder = [...new Map(ratios.map((entry) => [entry["bin"] as string, entry["order"] as number])).entries()]
    .sort((a, b) => a[1] - b[1])
    .map(([bin]) => bin);
  return [
    {
      id: "horizon-length",
      title: "Long-horizon resilience: success by the task's optimal length",
      caption:
        "Tasks binned by the oracle's solution length (all budgets together); hanoi's disk count is the horizon dial.",
      spec: bandedLines(lengths, {
        x: {
          field: "bin",
          type: "ordinal",
          sort: lengthOrder,
          title: "optimal length (turns)",
          axis: { labelAngle: 0 },
        },
        y: "success",
        color: colourIn(models, lengths),
        facets,
        yDomain: [0, 1],
        independentX: true,
      }),
    },
    {
      id: "horizon-ratio",
      title: "Success by budget ratio T / optimal length",
      caption: "Ratio 1 leaves no room for a single mistake; larger ratios leave room to recover.",
      spec: bandedLines(ratios, {
        x: { field: "bin", type: "ordinal", sort: ratioOrder, title: "T / optimal length", axis: { labelAngle: 0 } },
        y: "success",
        color: colourIn(models, ratios),
        facets,
        yDomain: [0, 1],
        independentX: true,
      }),
    },
  ];
}
