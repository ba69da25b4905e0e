// The HTML study report: `renderStudyHtml(report)` gives one self-contained file (charts by Vega-Lite, inlined),
// with the escaping helpers it is built on.
export { escapeHtml, html, jsonForScript, type SafeHtml } from "./escape.js";
export { renderStudyHtml, reportCharts, type StudyHtmlOptions } from "./render.js";
export { vegaBundle, type VegaBundle } from "./vega-bundle.js";
export type { Chart } from "./chart-kit.js";
