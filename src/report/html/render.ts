// The study report as ONE self-contained HTML file: the page (sections.ts), the chart specs as a JSON data
// block, and Vega, Vega-Lite and vega-embed inlined (vega-bundle.ts), so it opens from a file with no network.
// A Content-Security-Policy allows only the page's own scripts (by SHA-256 hash), no network, and no eval:
// Vega runs its expressions through its interpreter (ast mode), so even text that escaped escaping could not
// run. The page script marks each chart container data-rendered="true" (or "error") and the body
// data-charts="rendered" (or "failed") when all are done, which the browser test reads.
import { createHash } from "node:crypto";
import type { StudyReport } from "../study-model.js";
import { hiddenCharts, horizonCharts, passCharts, recoveryCharts, stepCharts } from "./charts.js";
import { findingChart } from "./finding-chart.js";
import { trainingCharts } from "./training-charts.js";
import type { Chart } from "./chart-kit.js";
import { html, jsonForScript, type SafeHtml } from "./escape.js";
import {
  budgetTableSection,
  chartSection,
  configSection,
  examplesSection,
  modelsSection,
  notesSection,
  perturbationExtras,
  stepQualityTables,
  trainingExtras,
} from "./sections.js";
import { findingsSection } from "./findings-section.js";
import { REPORT_CSS } from "./style.js";
import { vegaBundle } from "./vega-bundle.js";

const BOOT_SCRIPT = `(function () {
  var specs = JSON.parse(document.getElementById("budgetrl-charts").textContent);
  var failures = 0;
  var jobs = Object.keys(specs).map(function (id) {
    var element = document.getElementById("chart-" + id);
    if (element === null) return Promise.resolve();
    return vegaEmbed(element, specs[id], { mode: "vega-lite", renderer: "svg", actions: false, ast: true, expr: vega.expressionInterpreter })
      .then(function () { element.setAttribute("data-rendered", "true"); })
      .catch(function (error) {
        failures += 1;
        element.setAttribute("data-rendered", "error");
        element.textContent = "This chart could not be drawn: " + error.message;
        console.error("chart " + id + ": " + error.message);
      });
  });
  Promise.all(jobs).then(function () { document.body.setAttribute("data-charts", failures === 0 ? "rendered" : "failed"); });
})();`;

const sha256 = (text: string): string => `'sha256-${createHash("sha256").update(text, "utf8").digest("base64")}'`;

/** Every chart of the report, by section. */
export function reportCharts(report: StudyReport): {
  readonly pass: Chart[];
  readonly hidden: Chart[];
  readonly steps: Chart[];
  readonly recovery: Chart[];
  readonly horizon: Chart[];
  readonly training: Chart[];
  readonly findings: Chart[];
} {
  return {
    pass: passCharts(report),
    hidden: hiddenCharts(report),
    steps: stepCharts(report),
    recovery: recoveryCharts(report),
    horizon: horizonCharts(report),
    training: trainingCharts(report),
    findings: report.findings.map((_, i) => findingChart(report, i)).filter((chart): chart is Chart => chart !== null),
  };
}

/** A study's model sources under the title: where the base comes from, where RL trains, what was left out. */
function setupLine(report: StudyReport): SafeHtml | null {
  const setup = report.setup;
  if (setup === null) return null;
  return html`<div class="meta setup">
    Base: ${setup.base}. RL: ${setup.trainer}.${setup.skipped.map((text) => html` Skipped: ${text}.`)}
  </div>`;
}

/** How the report is rendered: `viewUrl`, the address of a running `budgetrl view` of the report's store, makes each
 * cell of the budget table a link to its episodes there. */
export interface StudyHtmlOptions {
  readonly viewUrl?: string;
}

export function renderStudyHtml(report: StudyReport, options: StudyHtmlOptions = {}): string {
  const charts = reportCharts(report);
  const all = [
    ...charts.findings,
    ...charts.pass,
    ...charts.hidden,
    ...charts.steps,
    ...charts.recovery,
    ...charts.horizon,
    ...charts.training,
  ];
  const specs: Record<string, unknown> = {};
  for (const chart of all) specs[chart.id] = chart.spec;
  const bundle = vegaBundle();
  const scripts = [...bundle.scripts, BOOT_SCRIPT];
  const csp = `default-src 'none'; script-src ${scripts.map(sha256).join(" ")}; style-src 'unsafe-inline'; img-src data:; font-src data:; base-uri 'none'; form-action 'none'`;
  const nav: [string, string][] = [
    ["findings", "Findings"],
    ["models", "Models"],
    ["pass", "Pass@(K,T)"],
    ["budget-table", "Budget table"],
    ["step-quality", "Step quality"],
    ["recovery", "Recovery"],
    ["horizon", "Horizon"],
    ["training", "Training"],
    ["examples", "Replies"],
    ["configs", "Configs & seeds"],
  ];
  const body: SafeHtml = html`<header class="top">
      <div class="wrap">
        <h1>${report.title}</h1>
        <div class="meta">
          ${report.models.length} models, ${report.runs.length} runs from ${report.store} | generated
          ${report.generatedAt} | budgetrl ${report.codeVersion} | every number a mean over distinct tasks (each task
          once, whatever its samples), with a 95% bootstrap interval over them (${report.settings.bootstrap} resamples,
          seed ${report.settings.seed})
        </div>
        ${setupLine(report)}
      </div>
    </header>
    <nav class="toc"><div class="wrap">${nav.map(([id, label]) => html`<a href="#${id}">${label}</a>`)}</div></nav>
    <main class="wrap">
      ${findingsSection(report, new Map(charts.findings.map((chart) => [chart.id, chart])))} ${modelsSection(report)}
      ${chartSection("pass", "Pass@(K,T)", "Success with K sampled attempts, each allowed at most T turns: heatmaps per model, curves over K at each budget and over T for each K.", charts.pass, "No evaluation runs.")}
      ${budgetTableSection(report, charts.hidden, options.viewUrl)}
      ${chartSection("step-quality", "Single-step decision quality", "How often each action is one the oracle would take within the turns left, on the states the policy reached itself (solid) and on an expert's states (teacher-forced, dashed, when present); the tables give the teacher-forced share (in %) per budget, told (announced) or not (hidden).", charts.steps, "No oracle annotations in these runs (evaluate with --annotate, the default).", stepQualityTables(report) ?? undefined)}
      ${chartSection("recovery", "Error recovery", "What happens after a mistake: success by the turn of the first non-optimal action (natural errors), and the success after one mistake forced on the expert's states (the same states for every model).", charts.recovery, "No oracle annotations in these runs.", perturbationExtras(report))}
      ${chartSection("horizon", "Long-horizon resilience", "Success as tasks get longer, and as the budget leaves more or less slack over the optimal solution.", charts.horizon, "No tasks with a known optimal length.")}
      ${chartSection("training", "Training curves", "Reward and success per RL step, and held-out Pass@(1,T) at every evaluation.", charts.training, "No training runs given (--train DIR).", trainingExtras(report))}
      ${examplesSection(report)} ${configSection(report)} ${notesSection(report)}
      <footer>
        Charts drawn with Vega ${bundle.versions["vega"] ?? ""}, Vega-Lite ${bundle.versions["vega-lite"] ?? ""} and
        vega-embed ${bundle.versions["vega-embed"] ?? ""}, inlined in this file. Report data model version
        ${report.version}.
      </footer>
    </main>`;
  return [
    "<!DOCTYPE html>",
    '<html lang="en"><head><meta charset="utf-8">',
    `<meta http-equiv="Content-Security-Policy" content="${csp}">`,
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    html`<title>${report.title}</title>`.html,
    `<style>${REPORT_CSS}</style>`,
    "</head><body>",
    body.html,
    `<script type="application/json" id="budgetrl-charts">${jsonForScript(specs)}</script>`,
    `<script type="application/json" id="budgetrl-report">${jsonForScript(report)}</script>`,
    ...scripts.map((script) => `<script>${script}</script>`),
    "</body></html>",
    "",
  ].join("\n");
}
