// The forest plot of a finding: each measure's paired difference with its interval over seeds and tasks, in
// percentage points, every seed pooled, one row per measure and scope, with the plan's margin drawn.
import type { StudyReport } from "../study-model.js";
import { forestDomain, type Chart } from "./chart-kit.js";

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
