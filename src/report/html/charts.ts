// The report's charts, one function per section, each turning a part of the StudyReport into Vega-Lite specs:
// Pass@(K,T) heatmaps and curves, announced vs hidden, step quality, recovery, horizon, training, and a forest
// plot of each finding's paired differences. Cells measured on fewer than MIN_TASKS tasks are left out of the
// curves (their intervals say little); the tables keep them.
import type { JsonObject } from "../../core/json.js";
import type { JsonEstimate, StudyReport } from "../study-model.js";
import { budgetLabelOrder } from "./budget-labels.js";
import {
  bandedLines,
  barsWithIntervals,
  estimateFields,
  fitWidth,
  HEATMAP_CELL_WIDTH,
  HEATMAP_LEGEND_WIDTH,
  modelColor,
  valueHeatmap,
  wrapColumns,
  type Chart,
} from "./chart-kit.js";
import { slug } from "./escape.js";

export const MIN_TASKS = 5;

const modelNames = (report: StudyReport): string[] => report.models.map((model) => model.name);

/** The legend of a chart: the models its rows have, each in its colour (a chart of one env lists that env's models). */
const colourIn = (models: readonly string[], rows: readonly JsonObject[]): JsonObject =>
  modelColor(
    models,
    "model",
    models.filter((name) => rows.some((entry) => entry["model"] === name)),
  );
const modesOf = (report: StudyReport): string[] => [...new Set(report.passTables.map((table) => table.mode))];
const enough = (estimate: JsonEstimate): boolean => estimate.value !== null && estimate.tasks >= MIN_TASKS;
const row = (fields: JsonObject, estimate: JsonEstimate): JsonObject => ({
  ...fields,
  ...estimateFields(estimate),
  short: estimate.value === null ? "-" : estimate.value.toFixed(2),
});
const header = (field: string, title: string, sort?: readonly (string | number)[]): JsonObject => ({
  field,
  type: "ordinal",
  title,
  ...(sort === undefined ? {} : { sort: [...sort] }),
  header: { labelFontSize: 12, labelFontWeight: 600 },
});

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

export function stepCharts(report: StudyReport): Chart[] {
  if (report.stepQuality.length === 0) return [];
  const models = modelNames(report);
  const envs = [...new Set(report.stepQuality.map((entry) => entry.env))];
  const modes = [...new Set(report.stepQuality.map((entry) => entry.mode))];
  const facets = { column: header("env", "", envs), ...(modes.length > 1 ? { row: header("mode", "", modes) } : {}) };
  const key = (entry: StudyReport["stepQuality"][number]): JsonObject => ({
    model: entry.model,
    env: entry.env,
    mode: entry.mode,
    source: entry.source,
  });
  const overall = report.stepQuality.map((entry) => row(key(entry), entry.overall));
  const byTurn = report.stepQuality.flatMap((entry) =>
    entry.byTurn
      .filter((cell) => enough(cell.estimate))
      .map((cell) => row({ ...key(entry), turn: cell.turn }, cell.estimate)),
  );
  // Turns left per budget (pooled, turns left t would mix a budget's first turns with larger budgets' later ones).
  const byLeft = report.stepQuality.flatMap((entry) =>
    entry.byBudgetAndTurnsLeft
      .filter((cell) => enough(cell.estimate))
      .map((cell) =>
        row(
          {
            ...key(entry),
            budget: cell.budget,
            panel: modes.length > 1 ? `${entry.env} · ${entry.mode}` : entry.env,
            turnsLeft: cell.turnsLeft,
          },
          cell.estimate,
        ),
      ),
  );
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

export function recoveryCharts(report: StudyReport): Chart[] {
  const models = modelNames(report);
  const charts: Chart[] = [];
  if (report.recovery.length > 0) {
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
    charts.push({
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
    });
    charts.push({
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
    });
  }
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
  if (perturbed.length > 0) {
    const envs = [...new Set(report.perturbation.map((entry) => entry.env))];
    charts.push({
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
    });
  }
  return charts;
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

/** Steps averaged over for the per-step training curves. */
export const SMOOTHING_STEPS = 10;

/**
 * Trailing means of `values` over windows of `window` entries (fewer at the start), with the smallest and
 * largest single value of each window: the curve and the spread the per-step chart draws.
 */
export function trailingMeans(
  values: readonly number[],
  window: number,
): { mean: number; low: number; high: number }[] {
  return values.map((_, i) => {
    const part = values.slice(Math.max(0, i - window + 1), i + 1);
    return {
      mean: part.reduce((sum, value) => sum + value, 0) / part.length,
      low: Math.min(...part),
      high: Math.max(...part),
    };
  });
}

export function trainingCharts(report: StudyReport): Chart[] {
  if (report.training.length === 0) return [];
  const names = report.training.map((entry) => entry.name);
  const runColor = modelColor(modelNames(report), "training run", names);
  const steps = report.training.flatMap((entry) =>
    (["reward", "success"] as const).flatMap((metric) => {
      const measured = entry.steps.filter((step) => step[metric] !== null);
      const smoothed = trailingMeans(
        measured.map((step) => step[metric] as number),
        SMOOTHING_STEPS,
      );
      return measured.map((step, i) => ({
        model: entry.name,
        step: step.step,
        metric,
        value: smoothed[i]!.mean,
        low: smoothed[i]!.low,
        high: smoothed[i]!.high,
        tasks: 0,
        label: `${smoothed[i]!.mean.toFixed(3)} (this step ${(step[metric] as number).toFixed(3)})`,
      }));
    }),
  );
  const budgets = budgetLabelOrder(report.training.flatMap((entry) => entry.evals.map((point) => point.budget)));
  const evals = report.training.flatMap((entry) =>
    entry.evals.map((point) =>
      row({ model: entry.name, run: entry.name, step: point.step, budget: point.budget }, point.estimate),
    ),
  );
  const charts: Chart[] = [];
  if (steps.length > 0)
    charts.push({
      id: "training-steps",
      title: "Training: reward and success per step",
      caption: `Lines: the mean of each step's rollouts (fresh training tasks, the step's budgets), averaged over the last ${SMOOTHING_STEPS} steps; bands: the lowest and highest single step in those ${SMOOTHING_STEPS}.`,
      spec: bandedLines(steps, {
        x: { field: "step", type: "quantitative", title: "step" },
        y: `mean (last ${SMOOTHING_STEPS} steps)`,
        color: runColor,
        facets: { column: header("metric", "", ["reward", "success"]) },
        width: 300,
        height: 170,
        independentY: true,
        points: false,
      }),
    });
  if (evals.length > 0)
    charts.push({
      id: "training-heldout",
      title: "Training: held-out Pass@(1,T) at each evaluation",
      caption:
        "The held-out tasks are generated from another seed than the training tasks (their overlap is counted in the table below).",
      spec: bandedLines(evals, {
        x: { field: "step", type: "quantitative", title: "step" },
        y: "Pass@(1,T)",
        color: { field: "budget", type: "ordinal", sort: budgets, title: "budget T", scale: { scheme: "viridis" } },
        facets: { wrap: { facet: header("run", "", names), columns: 3 } },
        width: 240,
        height: 150,
        yDomain: [0, 1],
      }),
    });
  return charts;
}

/** Margin around a forest plot's intervals and zero, as a share of what they span (at least FOREST_MIN_MARGIN pp). */
export const FOREST_MARGIN = 0.08;
export const FOREST_MIN_MARGIN = 0.5;

/** The x domain of a forest plot (and the y domain of the perturbation chart, in fractions: minMargin 0.005):
 * every interval and zero, with a margin on both sides, so that the zero line never sits on the plot's edge (or
 * outside it) whatever side the intervals fall on. */
export function forestDomain(values: readonly (number | null)[], minMargin = FOREST_MIN_MARGIN): [number, number] {
  const known = values.filter((value): value is number => value !== null && Number.isFinite(value));
  const low = Math.min(0, ...known);
  const high = Math.max(0, ...known);
  const margin = Math.max(minMargin, FOREST_MARGIN * (high - low));
  return [low - margin, high + margin];
}

const points = (value: number): string => `${value >= 0 ? "+" : "-"}${Math.abs(value).toFixed(1)}`;

/** A forest plot of a finding's paired differences (a - b with its 95% interval over seeds and tasks), in percentage
 * points, over every seed pooled, one row per measure and scope; the plan's margin as dashed lines at +-m. */
export function findingChart(report: StudyReport, index: number): Chart | null {
  const finding = report.findings[index];
  if (finding === undefined) return null;
  const inPoints = (value: number | null): number | null => (value === null ? null : 100 * value);
  const rows = finding.scopes
    .filter((scope) => scope.seed === null)
    .flatMap((scope) =>
      scope.comparisons.flatMap((comparison) => {
        const { value, low, high, tasks } = comparison.difference;
        if (value === null || comparison.outcome === "cannot move" || comparison.outcome === "tied") return [];
        const interval = low === null || high === null ? "" : ` [${points(100 * low)}, ${points(100 * high)}]`;
        return [
          {
            value: 100 * value,
            low: inPoints(low),
            high: inPoints(high),
            tasks,
            label: `${points(100 * value)}${interval} pp`,
            model: `${comparison.a} - ${comparison.b}`,
            what: `${comparison.metric} · ${scope.scope}${comparison.decides ? "" : " (context)"}`,
            direction: comparison.outcome,
          },
        ];
      }),
    );
  if (rows.length === 0) return null;
  const order = rows.map((entry) => entry.what);
  const x = {
    type: "quantitative",
    title: "difference (percentage points)",
    scale: {
      domain: forestDomain(
        rows.flatMap((entry) => [entry.value, entry.low, entry.high, 100 * finding.margin, -100 * finding.margin]),
      ),
      nice: false,
    },
  };
  return {
    id: `finding-${finding.id}`,
    title: "Paired differences",
    caption:
      "Paired differences on shared tasks in percentage points, every seed pooled, with 95% intervals over seeds and tasks; right of the zero line favours the first model; the dotted lines are the plan's margin (inside them: negligible).",
    spec: {
      data: { values: rows },
      width: 420,
      height: { step: 22 },
      layer: [
        { mark: { type: "rule", color: "#888", strokeDash: [3, 3] }, encoding: { x: { datum: 0, ...x } } },
        {
          mark: { type: "rule", color: "#bbb", strokeDash: [1, 3] },
          encoding: { x: { datum: 100 * finding.margin, ...x } },
        },
        {
          mark: { type: "rule", color: "#bbb", strokeDash: [1, 3] },
          encoding: { x: { datum: -100 * finding.margin, ...x } },
        },
        {
          mark: { type: "rule", strokeWidth: 2 },
          encoding: {
            y: { field: "what", type: "nominal", sort: order, title: null, axis: { labelLimit: 320 } },
            x: { field: "low", ...x },
            x2: { field: "high" },
            color: {
              field: "direction",
              type: "nominal",
              scale: {
                domain: ["higher", "lower", "negligible", "unclear"],
                range: ["#2e7d32", "#c62828", "#8d6e63", "#78909c"],
              },
              title: "reading",
            },
          },
        },
        {
          mark: { type: "point", filled: true, size: 70 },
          encoding: {
            y: { field: "what", type: "nominal", sort: order },
            x: { field: "value", ...x },
            color: { field: "direction", type: "nominal" },
            tooltip: [
              { field: "model", title: "comparison" },
              { field: "what" },
              { field: "label", title: "difference [95% CI]" },
              { field: "tasks" },
            ],
          },
        },
      ],
    },
  };
}
