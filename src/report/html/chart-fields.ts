// What every chart of the report shares: the models' names and colours, a row of an estimate, a facet header, and
// the fewest tasks a curve's cell needs (cells on fewer are left out of the curves: their intervals say little; the
// tables keep them).
import type { JsonObject } from "../../core/json.js";
import type { JsonEstimate, StudyReport } from "../study-model.js";
import { estimateFields, modelColor } from "./chart-kit.js";

export const MIN_TASKS = 5;

export const modelNames = (report: StudyReport): string[] => report.models.map((model) => model.name);

/** The legend of a chart: the models its rows have, each in its colour (a chart of one env lists that env's models). */
export const colourIn = (models: readonly string[], rows: readonly JsonObject[]): JsonObject =>
  modelColor(
    models,
    "model",
    models.filter((name) => rows.some((entry) => entry["model"] === name)),
  );
export const modesOf = (report: StudyReport): string[] => [...new Set(report.passTables.map((table) => table.mode))];
export const enough = (estimate: JsonEstimate): boolean => estimate.value !== null && estimate.tasks >= MIN_TASKS;
export const row = (fields: JsonObject, estimate: JsonEstimate): JsonObject => ({
  ...fields,
  ...estimateFields(estimate),
  short: estimate.value === null ? "-" : estimate.value.toFixed(2),
});
export const header = (field: string, title: string, sort?: readonly (string | number)[]): JsonObject => ({
  field,
  type: "ordinal",
  title,
  ...(sort === undefined ? {} : { sort: [...sort] }),
  header: { labelFontSize: 12, labelFontWeight: 600 },
});
