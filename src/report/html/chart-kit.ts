// Building blocks of the report's Vega-Lite charts: a chart record, one colour per model (the same in every
// chart), and the two layouts every chart uses: a line with its interval band, and a heatmap with the value
// in each cell. Specs are plain JSON; model names appear only as data values, never in field names or
// expressions, so no text from a store can reach Vega's expression language.
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
export const PALETTE = ["#4e79a7", "#f28e2b", "#59a14f", "#e15759", "#76b7b2", "#edc948", "#b07aa1", "#ff9da7", "#9c755f", "#bab0ac"] as const;

/**
 * The colour of each model, the same in every chart: model i of `models` gets PALETTE[i]. With `shown`, only
 * those models are in the legend (a chart of some of the models), each keeping its colour.
 */
export function modelColor(models: readonly string[], title = "model", shown: readonly string[] = models): JsonObject {
  const colourOf = (name: string): string => PALETTE[Math.max(0, models.indexOf(name)) % PALETTE.length] as string;
  return { field: "model", type: "nominal", title, scale: { domain: [...shown], range: shown.map(colourOf) } };
}

/** The fields of an estimate as chart data: value, low, high, tasks, and a label for tooltips. */
export function estimateFields(estimate: JsonEstimate): JsonObject {
  const interval = estimate.low === null || estimate.high === null ? "" : ` [${estimate.low.toFixed(3)}, ${estimate.high.toFixed(3)}]`;
  return { value: estimate.value, low: estimate.low, high: estimate.high, tasks: estimate.tasks, label: estimate.value === null ? "-" : `${estimate.value.toFixed(3)}${interval}` };
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
  return [{ field: series, type: "nominal" }, ...TOOLTIP.slice(1), { field: String(x["field"]), type: "nominal", title: String(x["title"] ?? x["field"]) }];
}

/**
 * Lines with a shaded interval band per model: x from `x`, y = value, band = [low, high]. Faceted by column
 * and row when given. The legend is the lines' (solid line and point), not the bands' pale fill.
 */
export function bandedLines(rows: readonly JsonObject[], options: { readonly x: JsonObject; readonly y: string; readonly color: JsonObject; readonly facets?: Facets; readonly strokeDash?: JsonObject; readonly width?: number; readonly height?: number; readonly yDomain?: readonly number[]; readonly independentY?: boolean; readonly independentX?: boolean; readonly points?: boolean }): JsonObject {
  const y: JsonObject = { field: "value", type: "quantitative", title: options.y, scale: options.yDomain === undefined ? { zero: false } : { domain: [...options.yDomain] } };
  const dash: JsonObject = options.strokeDash === undefined ? {} : { strokeDash: options.strokeDash };
  const layer: Json = [
    { mark: { type: "area", fillOpacity: 0.18 }, encoding: { x: options.x, y: { field: "low", type: "quantitative", title: options.y }, y2: { field: "high" }, color: options.color, ...(options.strokeDash === undefined ? {} : { detail: options.strokeDash }) } },
    { mark: { type: "line", point: options.points ?? true, strokeWidth: 2 }, encoding: { x: options.x, y, color: options.color, ...dash, tooltip: tooltip(String(options.color["field"]), options.x) } },
  ];
  const inner: JsonObject = { width: options.width ?? 220, height: options.height ?? 150, layer };
  const spec = facetOrPlain(rows, inner, options.facets);
  const independent: JsonObject = { ...(options.independentX === true ? { x: "independent" } : {}), ...(options.independentY === true ? { y: "independent" } : {}) };
  return Object.keys(independent).length === 0 ? spec : { ...spec, resolve: { scale: independent } };
}

/** A heatmap with the value printed in each cell (white on dark cells). */
export function valueHeatmap(rows: readonly JsonObject[], options: { readonly x: JsonObject; readonly y: JsonObject; readonly colorTitle: string; readonly facets?: Facets; readonly cellWidth?: number; readonly cellHeight?: number; readonly columns: number; readonly rowsCount: number }): JsonObject {
  const inner: JsonObject = {
    width: (options.cellWidth ?? 62) * options.columns,
    height: (options.cellHeight ?? 30) * options.rowsCount,
    encoding: { x: { ...options.x, axis: { labelAngle: 0 } }, y: options.y },
    layer: [
      { mark: { type: "rect", stroke: "white", strokeWidth: 1 }, encoding: { color: { field: "value", type: "quantitative", title: options.colorTitle, scale: { domain: [0, 1], scheme: "blues" }, legend: null }, tooltip: TOOLTIP } },
      { mark: { type: "text", fontSize: 12, fontWeight: 500 }, encoding: { text: { field: "short", type: "nominal" }, color: { condition: { test: "datum.value > 0.55", value: "white" }, value: "#1d2733" } } },
    ],
  };
  return facetOrPlain(rows, inner, options.facets);
}

/** Bars with error bars: one bar per model (offset within each x group), interval as a rule. */
export function barsWithIntervals(rows: readonly JsonObject[], options: { readonly x: JsonObject; readonly y: string; readonly color: JsonObject; readonly offset: JsonObject; readonly facets?: Facets; readonly width?: number; readonly height?: number; readonly yDomain?: readonly number[] }): JsonObject {
  const inner: JsonObject = {
    width: options.width ?? 240,
    height: options.height ?? 160,
    encoding: { x: options.x, xOffset: options.offset },
    layer: [
      { mark: { type: "bar", opacity: 0.85 }, encoding: { y: { field: "value", type: "quantitative", title: options.y, scale: { domain: [...(options.yDomain ?? [0, 1])] } }, color: options.color, tooltip: tooltip(String(options.color["field"]), options.x) } },
      { mark: { type: "rule", strokeWidth: 1.5 }, encoding: { y: { field: "low", type: "quantitative" }, y2: { field: "high" }, color: { value: "#1d2733" } } },
    ],
  };
  return facetOrPlain(rows, inner, options.facets);
}

function facetOrPlain(rows: readonly JsonObject[], inner: JsonObject, facets: Facets | undefined): JsonObject {
  const data: JsonObject = { values: [...rows] };
  if (facets?.wrap !== undefined) return { data, facet: facets.wrap.facet, columns: facets.wrap.columns, spec: inner };
  if (facets === undefined || (facets.column === undefined && facets.row === undefined)) return { data, ...inner };
  const facet: JsonObject = { ...(facets.column === undefined ? {} : { column: facets.column }), ...(facets.row === undefined ? {} : { row: facets.row }) };
  return { data, facet, spec: inner };
}
