// The Findings section: the analysis plan (its hash, when it was fixed, its rules), how each env's held-out tasks
// differ from its training tasks, one card per claim (the verdict where the plan decides it, the verdicts per env and
// seed, the decided scope's numbers, the sensitivity table, notes, the forest plot), and the statistics' ranges.
import { seedText } from "../findings.js";
import { planPreamble, planRows } from "../plan-markdown.js";
import type { JsonEstimate, StudyComparison, StudyFinding, StudyReport, Verdict } from "../study-model.js";
import type { Chart } from "./chart-kit.js";
import { html, type SafeHtml } from "./escape.js";
import { estimateCell, figure, percent, verdictClass } from "./sections.js";

/** Verdicts by scope (rows: each env, then the envs pooled) and seeds (columns: each seed, each half of the plan's
 * replication split, then all pooled). */
function verdictGrid(finding: StudyFinding): SafeHtml {
  const scopes = [...new Set(finding.scopes.map((scope) => scope.scope))];
  const columns: { readonly title: string; readonly verdict: (scope: string) => Verdict | undefined }[] = [
    ...[...new Set(finding.scopes.map((scope) => scope.seed))]
      .filter((seed) => seed !== null)
      .map((seed) => ({
        title: `seed ${seed}`,
        verdict: (scope: string) =>
          finding.scopes.find((entry) => entry.scope === scope && entry.seed === seed)?.verdict,
      })),
    ...(finding.replication?.halves ?? []).map((half) => ({
      title: seedText(half.seeds),
      verdict: (scope: string) => half.scopes.find((entry) => entry.scope === scope)?.verdict,
    })),
    {
      title: "all seeds",
      verdict: (scope: string) => finding.scopes.find((entry) => entry.scope === scope && entry.seed === null)?.verdict,
    },
  ];
  return html`<table class="data verdicts">
    <tr>
      <th class="name">envs \\ seeds</th>
      ${columns.map((column) => html`<th>${column.title}</th>`)}
    </tr>
    ${scopes.map(
      (scope) =>
        html`<tr>
          <td class="name">${scope}</td>
          ${columns.map((column) => {
            const verdict = column.verdict(scope);
            return verdict === undefined
              ? html`<td>-</td>`
              : html`<td><span class="badge small ${verdictClass(verdict)}">${verdict}</span></td>`;
          })}
        </tr>`,
    )}
  </table>`;
}

/** The replication line: both halves' verdicts and whether they give the pooled one. */
function replicationLine(finding: StudyFinding): SafeHtml | null {
  const replication = finding.replication;
  if (replication === null) return null;
  return html`<p class="replication">
    <span class="badge small ${verdictClass(replication.replicated ? "supported" : "inconclusive")}"
      >${replication.replicated ? "replicated" : "does not replicate"}</span
    >
    ${replication.halves.map((half) => `${seedText(half.seeds)}: ${half.verdict}`).join("; ")} (the halves the plan
    fixed before any run)
  </p>`;
}

const signedPoints = (value: number | null): string =>
  value === null ? "-" : `${value >= 0 ? "+" : "-"}${Math.abs(100 * value).toFixed(1)}`;

/** The comparisons of one scope: a - b with its interval, how it reads against the margin, what it could detect. */
function comparisonTable(comparisons: readonly StudyComparison[]): SafeHtml {
  const [a, b] = [comparisons[0]?.a ?? "a", comparisons[0]?.b ?? "b"];
  return html`<table class="data">
    <tr>
      <th class="name">measure</th>
      <th>${a}</th>
      <th>${b}</th>
      <th>difference (points)</th>
      <th class="name">reading</th>
      <th>detectable</th>
      <th>tasks</th>
    </tr>
    ${comparisons.map((comparison) => {
      const gains = comparison.statistic === "difference of differences";
      const side = (estimate: JsonEstimate): string =>
        estimate.value === null ? "-" : gains ? signedPoints(estimate.value) : `${percent(estimate.value)}%`;
      const { difference } = comparison;
      return html`<tr>
        <td class="wrap-text">${comparison.metric}${comparison.decides ? "" : " (context)"}</td>
        <td>${side(comparison.meanA)}</td>
        <td>${side(comparison.meanB)}</td>
        <td>
          ${signedPoints(difference.value)}${difference.low === null ? null : html`<span class="ci">[${signedPoints(difference.low)}, ${signedPoints(difference.high)}]</span>`}
        </td>
        <td class="name">
          ${comparison.outcome}${comparison.leftOut.length === 0 ? "" : ` (left out: ${comparison.leftOut.join(", ")})`}
        </td>
        <td>${comparison.detectable === null ? "-" : (100 * comparison.detectable).toFixed(1)}</td>
        <td>${difference.tasks}</td>
      </tr>`;
    })}
  </table>`;
}

function findingCard(finding: StudyFinding, chart: Chart | undefined): SafeHtml {
  const decided = finding.scopes.find(
    (scope) => scope.seed === null && finding.decidedBy.startsWith(`${scope.scope},`),
  );
  return html`<article class="finding ${verdictClass(finding.verdict)}" id="finding-${finding.id}">
    <h3>${finding.title} <span class="badge ${verdictClass(finding.verdict)}">${finding.verdict}</span></h3>
    <p class="claim">${finding.claim}</p>
    ${replicationLine(finding)}
    <p>${finding.summary}</p>
    <p class="note"><strong>Statistic:</strong> ${finding.statistic}. <strong>Rule:</strong> ${finding.rule}.</p>
    ${verdictGrid(finding)}
    ${
      decided === undefined
        ? null
        : html`<h4 class="invalid-replies">${decided.scope}, every seed pooled</h4>
            ${comparisonTable(decided.comparisons)}`
    }
    ${
      finding.sensitivity.length === 0
        ? null
        : html`<h4 class="invalid-replies">Sensitivity: the verdict under the plan's alternatives</h4>
            <table class="data">
              <tr>
                <th class="name">alternative</th>
                <th class="name">verdict</th>
              </tr>
              ${finding.sensitivity.map(
                (entry) =>
                  html`<tr>
                    <td class="wrap-text">${entry.alternative}</td>
                    <td class="name">
                      <span class="badge small ${verdictClass(entry.verdict)}">${entry.verdict}</span>
                    </td>
                  </tr>`,
              )}
            </table>`
    }
    ${
      finding.notes.length === 0
        ? null
        : html`<ul class="notes">
            ${finding.notes.map((note) => html`<li>${note}</li>`)}
          </ul>`
    }
    <details>
      <summary>Every scope and seed</summary>
      <ul>
        ${finding.scopes.map((scope) => html`<li><span class="badge small ${verdictClass(scope.verdict)}">${scope.verdict}</span> ${scope.text}</li>`)}
      </ul>
    </details>
    ${chart === undefined ? null : figure(chart)}
  </article>`;
}

function planBlock(report: StudyReport): SafeHtml {
  const header = report.plan;
  if (header === null) return html`<p class="note">This report predates analysis plans.</p>`;
  return html`<div class="plan">
    <p>
      <strong>Analysis plan</strong> <code>${header.hash.slice(0, 16)}</code>:
      ${header.fixedAt === null ? header.source : `fixed ${header.fixedAt}, before any stage ran (study.json).`}
    </p>
    ${header.changedAfterResults === null ? null : html`<p class="bad"><strong>${header.changedAfterResults}</strong></p>`}
    <ul class="notes">
      ${planPreamble(header.plan).map((line) => html`<li>${line}</li>`)}
    </ul>
    <div class="scroll">
      <table class="data">
        <tr>
          <th class="name">claim</th>
          <th class="name">models</th>
          <th class="name">envs</th>
          <th class="name">statistic</th>
          <th class="name">verdict</th>
          <th>margin</th>
        </tr>
        ${planRows(header.plan).map(
          (row) =>
            html`<tr>
              <td class="wrap-text">${row.claim}</td>
              <td class="name">${row.models}</td>
              <td class="wrap-text">${row.envs}</td>
              <td class="wrap-text">${row.statistic}</td>
              <td class="wrap-text">${row.rule}</td>
              <td>${row.margin}</td>
            </tr>`,
        )}
      </table>
    </div>
  </div>`;
}

/** How each env's held-out tasks differ from its training tasks; for content hold-outs, Pass@1 on the held-out tasks
 * whose structure training saw and on the others. */
function heldOutBlock(report: StudyReport): SafeHtml {
  if (report.heldOut.length === 0) return html``;
  return html`<h3>Held-out tasks</h3>
    <ul class="notes">
      ${report.heldOut.map((entry) => html`<li>${entry.statement}</li>`)}
    </ul>
    ${report.heldOut
      .filter((entry) => entry.split.length > 0)
      .map((entry) => {
        const budgets = [...new Set(entry.split.map((cell) => cell.budget))];
        const models = [...new Set(entry.split.map((cell) => cell.model))];
        const cellOf = (model: string, budget: string) =>
          entry.split.find((cell) => cell.model === model && cell.budget === budget);
        return html`<h4 class="invalid-replies">
            ${entry.env}: Pass@1 (%, announced) on held-out tasks whose structure training saw / did not see, every seed
            pooled
          </h4>
          <div class="scroll">
            <table class="data">
              <tr>
                <th class="name">model</th>
                ${budgets.map(
                  (budget) =>
                    html`<th>${budget} seen</th>
                      <th>${budget} unseen</th>`,
                )}
              </tr>
              ${models.map(
                (model) =>
                  html`<tr>
                    <td class="model">${model}</td>
                    ${budgets.map((budget) => {
                      const cell = cellOf(model, budget);
                      return html`${estimateCell(cell?.seen ?? null, "percent")}${estimateCell(cell?.unseen ?? null, "percent")}`;
                    })}
                  </tr>`,
              )}
            </table>
          </div>`;
      })}`;
}

function rangesBlock(report: StudyReport): SafeHtml {
  if (report.ranges.length === 0) return html``;
  return html`<h3>What each statistic can show</h3>
    <p class="note">
      The oracle and a uniformly random policy on the same held-out tasks, measured before any model was trained: a
      statistic enters a verdict on an env only where they differ by the plan's minimum range.
    </p>
    <div class="scroll">
      <table class="data">
        <tr>
          <th class="name">env</th>
          <th class="name">statistic</th>
          <th>budget</th>
          <th>oracle (%)</th>
          <th>random (%)</th>
          <th class="name">enters verdicts</th>
        </tr>
        ${report.ranges.map(
          (range) =>
            html`<tr>
              <td class="name">${range.env}</td>
              <td class="name">${range.statistic}</td>
              <td>${range.budget}</td>
              <td>${percent(range.oracle)}</td>
              <td>${percent(range.random)}</td>
              <td class="name ${range.moves ? "" : "bad"}">${range.moves ? "yes" : "no: cannot move"}</td>
            </tr>`,
        )}
      </table>
    </div>`;
}

export function findingsSection(report: StudyReport, charts: ReadonlyMap<string, Chart>): SafeHtml {
  const cards = report.findings.map((finding) => findingCard(finding, charts.get(`finding-${finding.id}`)));
  const seeds = report.seeds.length > 1 ? `the ${report.seeds.length} seeds (${report.seeds.join(", ")})` : "one seed";
  return html`<section id="findings">
    <h2>Findings</h2>
    <p class="lead">
      Each finding of the paper, and one question beyond it, tested as the analysis plan below says: the statistic that
      answers it, paired over the distinct tasks and seeds the models share, over ${seeds}. "Higher" and "lower" mean
      the interval excludes zero and the difference is at least the margin; "negligible", that the interval lies inside
      the margin.
    </p>
    ${planBlock(report)} ${heldOutBlock(report)}
    <div class="findings">${cards}</div>
    ${rangesBlock(report)}
  </section>`;
}
