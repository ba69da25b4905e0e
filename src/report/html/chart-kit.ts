// Building blocks of the report's Vega-Lite charts: a chart record, one colour per model (the same in every
// chart), the layouts every chart uses (a line with its interval band, a heatmap with the value in each cell,
// bars with intervals), and the widths that keep every chart inside the page: a section holds CHART_WIDTH
// pixels at a 1280-px window, so panels side by side shrink (fitWidth) or wrap into rows (wrapColumns). Specs
// are plain JSON; model names appear only as data values, never in field names or expressions, so no text from
// a store can reach Vega's expression language.
import type { Json, JsonObject } from "../../core/json.js";
import type { JsonEstimate } from "../study-model.js";

export interface Chart {
  readonly id: string;
  readonly title: string;
  /** One line under the chart: how to read it. */
  readonly caption: string;
  readonly spec: JsonObject;
}

/** Tableau 10: distinct, colour-blind friendlier than the defaults, and readable on white. */
export const PALETTE = [
  "#4e79a7",
  "#f28e2b",
  "#59a14f",
  "#e15759",
  "#76b7b2",
  "#edc948",
  "#b07aa1",
  "#ff9da7",
  "#9c755f",
  "#bab0ac",
] as const;

/**
 * The colour of each model, the same in every chart: model i of `models` gets PALETTE[i]. With `shown`, only
 * those models are in the legend (a chart of some of the models), each keeping its colour.
 */
export function modelColor(models: readonly string[], title = "model", shown: readonly string[] = models): JsonObject {
  const colourOf = (name: string): string => PALETTE[Math.max(0, models.indexOf(name)) % PALETTE.length]!;
  return { field: "model", type: "nominal", title, scale: { domain: [...shown], range: shown.map(colourOf) } };
}

/** Widest chart, in pixels: a section's content at a 1280-px window (1140) less room for the browser's rounding. */
export const CHART_WIDTH = 1080;
/** What a faceted chart draws besides its panels: the y axis with its title and the row headers on the left. */
export const LEFT_MARGIN = 90;
/** Room for a legend of model names on the right (Vega-Lite cuts labels at 160 px). */
export const LEGEND_WIDTH = 190;
/** Vega-Lite's space between facet panels. */
export const PANEL_SPACING = 20;

/** The width of each of `count` panels side by side: `preferred`, or less so that they fit in CHART_WIDTH. */
export function fitWidth(count: number, preferred: number, reserve = LEFT_MARGIN + LEGEND_WIDTH): number {
  const room = Math.floor((CHART_WIDTH - reserve - PANEL_SPACING * Math.max(0, count - 1)) / Math.max(1, count));
  return Math.max(1, Math.min(preferred, room));
}

/** How many panels of `panelWidth` (with their own y axis, `panelMargin`) fit in one row; `multiple` keeps
 * panels that belong together (a model's announced and hidden panels) on the same row. */
export function wrapColumns(
  count: number,
  panelWidth: number,
  options: { readonly panelMargin?: number; readonly reserve?: number; readonly multiple?: number } = {},
): number {
  const fit = Math.floor(
    (CHART_WIDTH - (options.reserve ?? 0) + PANEL_SPACING) / (panelWidth + (options.panelMargin ?? 0) + PANEL_SPACING),
  );
  const multiple = options.multiple ?? 1;
  const columns = fit >= multiple ? fit - (fit % multiple) : Math.max(1, fit);
  return Math.max(1, Math.min(count, columns));
}

/** The fields of an estimate as chart data: value, low, high, tasks, and a label for tooltips; with scale
 * "percent", the numbers are in % (0-100). */
export function estimateFields(estimate: JsonEstimate, scale: "fraction" | "percent" = "fraction"): JsonObject {
  const factor = scale === "percent" ? 100 : 1;
  const digits = scale === "percent" ? 1 : 3;
  const at = (value: number | null): number | null => (value === null ? null : value * factor);
  const text = (value: number): string => `${(value * factor).toFixed(digits)}${scale === "percent" ? "%" : ""}`;
  const interval =
    estimate.low === null || estimate.high === null ? "" : ` [${text(estimate.low)}, ${text(estimate.high)}]`;
  return {
    value: at(estimate.value),
    low: at(estimate.low),
    high: at(estimate.high),
    tasks: estimate.tasks,
    label: estimate.value === null ? "-" : `${text(estimate.value)}${interval}`,
  };
}

export interface Facets {
  readonly column?: JsonObject;
  readonly row?: JsonObject;
  /** One facet field wrapped into rows of `columns` panels (instead of column/row), for many panels. */
  readonly wrap?: { readonly facet: JsonObject; readonly columns: number };
}

const TOOLTIP: Json[] = [
  { field: "model", type: "nominal" },
  { field: "label", type: "nominal", title: "estimate [95% CI]" },
  { field: "tasks", type: "quantitative" },
];

function tooltip(series: string, x: JsonObject): Json[] {
  return [
    { field: series, type: "nominal" },
    ...TOOLTIP.slice(1),
    { field: String(x["field"]), type: "nominal", title: String(x["title"] ?? x["field"]) },
  ];
}

/**
 * Lines with a shaded interval band per model: x from `x`, y = value, band = [low, high]. Faceted by column
 * and row when given. The legend is the lines' (solid line and point), not the bands' pale fill.
 */
export function bandedLines(
  rows: readonly JsonObject[],
  options: {
    readonly x: JsonObject;
    readonly y: string;
    readonly color: JsonObject;
    readonly facets?: Facets;
    readonly strokeDash?: JsonObject;
    readonly width?: number;
    readonly height?: number;
    readonly yDomain?: readonly number[];
    readonly independentY?: boolean;
    readonly independentX?: boolean;
    readonly points?: boolean;
  },
): JsonObject {
  const y: JsonObject = {
    field: "value",
    type: "quantitative",
    title: options.y,
    scale: options.yDomain === undefined ? { zero: false } : { domain: [...options.yDomain] },
  };
  const dash: JsonObject = options.strokeDash === undefined ? {} : { strokeDash: options.strokeDash };
  const layer: Json = [
    {
      mark: { type: "area", fillOpacity: 0.18 },
      encoding: {
        x: options.x,
        y: { field: "low", type: "quantitative", title: options.y },
        y2: { field: "high" },
        color: options.color,
        ...(options.strokeDash === undefined ? {} : { detail: options.strokeDash }),
      },
    },
    {
      mark: { type: "line", point: options.points ?? true, strokeWidth: 2 },
      encoding: {
        x: options.x,
        y,
        color: options.color,
        ...dash,
        tooltip: tooltip(String(options.color["field"]), options.x),
      },
    },
  ];
  const inner: JsonObject = { width: options.width ?? 220, height: options.height ?? 150, layer };
  const spec = facetOrPlain(rows, inner, options.facets);
  const independent: JsonObject = {
    ...(options.independentX === true ? { x: "independent" } : {}),
    ...(options.independentY === true ? { y: "independent" } : {}),
  };
  return Object.keys(independent).length === 0 ? spec : { ...spec, resolve: { scale: independent } };
}

/** Width of a heatmap cell, and the room a heatmap's legend (a colour gradient with its title) takes. */
export const HEATMAP_CELL_WIDTH = 46;
export const HEATMAP_LEGEND_WIDTH = 100;

/**
 * A heatmap of percentages (rows' value in 0-100) with the value printed in each cell (white on dark cells) and
 * a colour legend in %. Each panel of a wrapped facet has its own axes (`panelMargin` of `wrapColumns`).
 */
export function valueHeatmap(
  rows: readonly JsonObject[],
  options: {
    readonly x: JsonObject;
    readonly y: JsonObject;
    readonly colorTitle: string;
    readonly facets?: Facets;
    readonly cellWidth?: number;
    readonly cellHeight?: number;
    readonly columns: number;
    readonly rowsCount: number;
  },
): JsonObject {
  const inner: JsonObject = {
    width: (options.cellWidth ?? HEATMAP_CELL_WIDTH) * options.columns,
    height: (options.cellHeight ?? 28) * options.rowsCount,
    encoding: { x: { ...options.x, axis: { labelAngle: 0 } }, y: options.y },
    layer: [
      {
        mark: { type: "rect", stroke: "white", strokeWidth: 1 },
        encoding: {
          color: {
            field: "value",
            type: "quantitative",
            title: options.colorTitle,
            scale: { domain: [0, 100], scheme: "blues" },
            legend: { orient: "right", gradientLength: 120, titleLimit: HEATMAP_LEGEND_WIDTH - 10 },
          },
          tooltip: TOOLTIP,
        },
      },
      {
        mark: { type: "text", fontSize: 12, fontWeight: 500 },
        encoding: {
          text: { field: "short", type: "nominal" },
          color: { condition: { test: "datum.value > 55", value: "white" }, value: "#1d2733" },
        },
      },
    ],
  };
  return facetOrPlain(rows, inner, options.facets);
}

/** Bars with error bars: one bar per model (offset within each x group), interval as a rule. */
export function barsWithIntervals(
  rows: readonly JsonObject[],
  options: {
    readonly x: JsonObject;
    readonly y: string;
    readonly color: JsonObject;
    readonly offset: JsonObject;
    readonly facets?: Facets;
    readonly width?: number;
    readonly height?: number;
    readonly yDomain?: readonly number[];
  },
): JsonObject {
  const inner: JsonObject = {
    width: options.width ?? 240,
    height: options.height ?? 160,
    encoding: { x: options.x, xOffset: options.offset },
    layer: [
      {
        mark: { type: "bar", opacity: 0.85 },
        encoding: {
          y: {
            field: "value",
            type: "quantitative",
            title: options.y,
            scale: { domain: [...(options.yDomain ?? [0, 1])] },
          },
          color: options.color,
          tooltip: tooltip(String(options.color["field"]), options.x),
        },
      },
      {
        mark: { type: "rule", strokeWidth: 1.5 },
        encoding: { y: { field: "low", type: "quantitative" }, y2: { field: "high" }, color: { value: "#1d2733" } },
      },
    ],
  };
  return facetOrPlain(rows, inner, options.facets);
}

function facetOrPlain(rows: readonly JsonObject[], inner: JsonObject, facets: Facets | undefined): JsonObject {
  const data: JsonObject = { values: [...rows] };
  if (facets?.wrap !== undefined) return { data, facet: facets.wrap.facet, columns: facets.wrap.columns, spec: inner };
  if (facets === undefined || (facets.column === undefined && facets.row === undefined)) return { data, ...inner };
  const facet: JsonObject = {
    ...(facets.column === undefined ? {} : { column: facets.column }),
    ...(facets.row === undefined ? {} : { row: facets.row }),
  };
  return { data, facet, spec: inner };
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
