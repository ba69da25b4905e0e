// The report's sections as HTML, every piece of text escaped by the `html` tag (escape.ts). Charts appear as
// empty containers (`figure`) that the page script fills; their specs travel separately as JSON.
import type { JsonEstimate, StudyReport, StudyRun, Verdict } from "../study-model.js";
import { ROLE_NAMES } from "../study-model.js";
import { stepQualityByBudget } from "../study-tables.js";
import type { Chart } from "./chart-kit.js";
import { runsUrl, runUrl } from "../view-links.js";
import { breakAfterSlashes, html, slug, type SafeHtml } from "./escape.js";
import { seedStrip } from "./seed-strip.js";

export function figure(chart: Chart): SafeHtml {
  return html`<figure class="chart-box">
    <h4>${chart.title}</h4>
    <div class="chart" id="chart-${chart.id}" data-chart="${chart.id}"></div>
    <figcaption>${chart.caption}</figcaption>
  </figure>`;
}

export const verdictClass = (verdict: Verdict): string => `v-${slug(verdict)}`;
export const percent = (value: number | null): string => (value === null ? "-" : (100 * value).toFixed(1));
const fixed = (value: number | null, digits = 3): string => (value === null ? "-" : value.toFixed(digits));

/** An estimate with its interval (and `beside` it, a seed strip); with `href` the value opens it (a view's episodes). */
export function estimateCell(
  estimate: JsonEstimate | null,
  scale: "percent" | "fraction",
  best = false,
  beside: SafeHtml | null = null,
  href?: string,
): SafeHtml {
  if (estimate === null || estimate.value === null) return html`<td>-</td>`;
  const format = scale === "percent" ? percent : (value: number | null) => fixed(value);
  const interval =
    estimate.low === null ? null : html`<span class="ci">[${format(estimate.low)}, ${format(estimate.high)}]</span>`;
  const value = href === undefined ? format(estimate.value) : html`<a href="${href}">${format(estimate.value)}</a>`;
  return html`<td class="${best ? "best" : ""}">${value}${interval}${beside}</td>`;
}

/** Where a budget table cell's episodes are in a running view: the run's episodes at that budget, or, when the row
 * pools several runs (seeds), the view's list of those runs. */
function cellLink(
  report: StudyReport,
  viewUrl: string | undefined,
  variant: string,
  row: { readonly model: string; readonly mode: string },
  budget: string,
): string | undefined {
  if (viewUrl === undefined) return undefined;
  const runs = report.runs
    .filter(
      (run) => run.model === row.model && run.variant === variant && run.mode === row.mode && run.kind === "policy",
    )
    .map((run) => run.id);
  if (runs.length === 0) return undefined;
  return runs.length === 1 ? runUrl(viewUrl, runs[0]!, { budget }) : runsUrl(viewUrl, runs);
}

export function modelsSection(report: StudyReport): SafeHtml {
  const rows = report.models.map(
    (model) =>
      html`<tr>
        <td class="model"><strong>${model.name}</strong></td>
        <td class="name">${ROLE_NAMES[model.role]}</td>
        <td class="wrap-text">${model.description}</td>
        <td class="wrap-text">${model.runs.join(", ")}</td>
      </tr>`,
  );
  return html`<section id="models">
    <h2>Models</h2>
    <p class="lead">
      A model is a policy evaluated in one or more runs (budget announced or hidden; teacher-forced and perturbed runs
      when present). Roles decide which comparisons the findings make.
    </p>
    <div class="scroll">
      <table class="data">
        <tr>
          <th class="name">model</th>
          <th class="name">role</th>
          <th class="name">what it is</th>
          <th class="name">runs</th>
        </tr>
        ${rows}
      </table>
    </div>
  </section>`;
}

export function budgetTableSection(report: StudyReport, charts: readonly Chart[], viewUrl?: string): SafeHtml {
  const tables = report.budgetTables.map((table) => {
    const modes = [...new Set(table.rows.map((row) => row.mode))];
    const best = (pick: "pass1" | "passK", mode: string, j: number): number =>
      Math.max(...table.rows.filter((row) => row.mode === mode).map((row) => row[pick][j]?.value ?? -1));
    const head1 = table.budgets.map((budget) => html`<th colspan="${table.k === null ? 1 : 2}">T = ${budget}</th>`);
    const head2 = table.budgets.map(
      () =>
        html`<th>Pass@1</th>
          ${table.k === null ? null : html`<th>Pass@${table.k}</th>`}`,
    );
    const body = modes.flatMap((mode) =>
      table.rows
        .filter((row) => row.mode === mode)
        .map(
          (row) =>
            html`<tr>
              <td class="model"><strong>${row.model}</strong></td>
              <td class="name">${row.mode}</td>
              ${table.budgets.map((budget, j) => {
                const pass1 = row.pass1[j] ?? null;
                const passK = row.passK[j] ?? null;
                const strip = seedStrip(row.seeds[j] ?? []);
                const href = cellLink(report, viewUrl, table.variant, row, budget);
                return html`${estimateCell(pass1, "percent", pass1?.value !== null && pass1?.value !== undefined && pass1.value === best("pass1", mode, j), strip, href)}${table.k === null ? null : estimateCell(passK, "percent", passK?.value !== null && passK?.value !== undefined && passK.value === best("passK", mode, j), null, href)}`;
              })}
            </tr>`,
        ),
    );
    return html`<h3>${table.variant}</h3>
      <div class="scroll">
        <table class="data">
          <tr>
            <th class="name" rowspan="2">model</th>
            <th class="name" rowspan="2">budget</th>
            ${head1}
          </tr>
          <tr>
            ${head2}
          </tr>
          ${body}
        </table>
      </div>
      ${invalidTable(report, table.variant)}${seedSpreadNotes(report, table.variant)}`;
  });
  return html`<section id="budget-table">
    <h2>Budget table</h2>
    <p class="lead">
      Pass@1 and Pass@K (in %) at each turn budget, one row per model and budget mode, laid out like the paper's Table
      1; 95% intervals underneath, the best of each column in bold, and under each Pass@1 of a study with several seeds
      a strip with every seed's own Pass@1 (one dot per seed on a 0-100% line; hover for its values). "hidden" rows are
      the same models evaluated without being told their budget. Beside each, the invalid replies: the share of the
      policy's turns (in %) whose reply could not be parsed or was not a valid action, a turn lost.
    </p>
    ${tables}${charts.map(figure)}
  </section>`;
}

/** The rows of a budget table whose seeds differ by more than twice the smallest effect, with their invalid replies. */
function seedSpreadNotes(report: StudyReport, variant: string): SafeHtml | null {
  const spread = report.seedSpread.filter((entry) => entry.variant === variant);
  if (spread.length === 0) return null;
  return html`<h4 class="invalid-replies">Seeds that differ on ${variant}</h4>
    <ul class="notes seed-spread">
      ${spread.map((entry) => html`<li>${entry.text}</li>`)}
    </ul>`;
}

/** The invalid-reply rates of a budget table's rows (in %), same rows and budgets. */
function invalidTable(report: StudyReport, variant: string): SafeHtml | null {
  const table = report.invalidReplies.find((entry) => entry.variant === variant);
  if (table === undefined || table.rows.length === 0) return null;
  // Grouped by budget mode, as the budget table above.
  const modes = [...new Set(table.rows.map((row) => row.mode))];
  const rows = modes.flatMap((mode) =>
    table.rows
      .filter((row) => row.mode === mode)
      .map(
        (row) =>
          html`<tr>
            <td class="model"><strong>${row.model}</strong></td>
            <td class="name">${row.mode}</td>
            ${table.budgets.map((_, j) => estimateCell(row.rates[j] ?? null, "percent"))}
          </tr>`,
      ),
  );
  return html`<h4 class="invalid-replies">Invalid replies on ${variant} (% of the policy's turns)</h4>
    <div class="scroll">
      <table class="data invalid-replies">
        <tr>
          <th class="name">model</th>
          <th class="name">budget</th>
          ${table.budgets.map((budget) => html`<th>T = ${budget}</th>`)}
        </tr>
        ${rows}
      </table>
    </div>`;
}

/** Teacher-forced step quality per model, budget and mode (in %), one table per env. */
export function stepQualityTables(report: StudyReport): SafeHtml | null {
  const tables = stepQualityByBudget(report);
  if (tables.length === 0) return null;
  return html`${tables.map(
    (table) =>
      html`<h3>Step quality on the expert's states, ${table.env}</h3>
        <div class="scroll">
          <table class="data">
            <tr>
              <th class="name">model</th>
              <th class="name">budget</th>
              <th>all</th>
              ${table.budgets.map((budget) => html`<th>T = ${budget}</th>`)}
            </tr>
            ${table.rows.map(
              (row) =>
                html`<tr>
                  <td class="model"><strong>${row.model}</strong></td>
                  <td class="name">${row.mode}</td>
                  ${estimateCell(row.overall, "percent")}${row.cells.map((cell) => estimateCell(cell, "percent"))}
                </tr>`,
            )}
          </table>
        </div>`,
  )}`;
}

export function chartSection(
  id: string,
  title: string,
  lead: string,
  charts: readonly Chart[],
  empty: string,
  extra?: SafeHtml,
): SafeHtml {
  return html`<section id="${id}">
    <h2>${title}</h2>
    <p class="lead">${lead}</p>
    ${charts.length === 0 ? html`<p class="note">${empty}</p>` : charts.map(figure)}${extra ?? null}
  </section>`;
}

export function trainingExtras(report: StudyReport): SafeHtml {
  if (report.training.length === 0) return html``;
  const rows = report.training.map((entry) => {
    const overlap = entry.overlap;
    // Runs on the same tasks have the same overlap: one line per distinct count.
    const counts = new Map<string, number>();
    for (const run of overlap.studyRuns)
      counts.set(`${run.seenInTraining}/${run.tasks}`, (counts.get(`${run.seenInTraining}/${run.tasks}`) ?? 0) + 1);
    const study = [...counts].map(([count, runs]) => `${count} tasks (${runs} run${runs === 1 ? "" : "s"})`).join("; ");
    return html`<tr>
      <td class="model"><strong>${entry.name}</strong></td>
      <td class="path">${breakAfterSlashes(entry.dir)}</td>
      <td>${entry.steps.length}</td>
      <td>${entry.evals.length === 0 ? 0 : new Set(entry.evals.map((point) => point.step)).size}</td>
      <td>${overlap.trainingTasks ?? "?"}</td>
      <td>
        ${overlap.heldOutSeenInTraining === null ? "?" : `${overlap.heldOutSeenInTraining}/${overlap.heldOutTasks}`}
      </td>
      <td class="wrap-text">${study === "" ? "-" : study}</td>
    </tr>`;
  });
  const notes = report.training.flatMap((entry) => entry.notes.map((note) => html`<li>${entry.name}: ${note}</li>`));
  return html`<h3>Training runs and held-out overlap</h3>
    <div class="scroll">
      <table class="data">
        <tr>
          <th class="name">training run</th>
          <th class="name">folder</th>
          <th>steps logged</th>
          <th>evaluations</th>
          <th>distinct training tasks</th>
          <th>held-out tasks seen in training</th>
          <th class="name">study runs' tasks seen in training</th>
        </tr>
        ${rows}
      </table>
    </div>
    ${
      notes.length === 0
        ? null
        : html`<ul class="notes">
            ${notes}
          </ul>`
    }`;
}

function excludedText(excluded: StudyReport["perturbation"][number]["excluded"]): string {
  const parts: [number, string][] = [
    [excluded.notReached, "finished by the expert before turn j"],
    [excluded.notForced, "every action at turn j was optimal"],
  ];
  const nonEmpty = parts.filter(([count]) => count > 0);
  return nonEmpty.length === 0
    ? "every episode used"
    : `left out: ${nonEmpty.map(([count, what]) => `${count} ${what}`).join(", ")}`;
}

export function perturbationExtras(report: StudyReport): SafeHtml {
  if (report.perturbation.length === 0)
    return html`<p class="note">
      No recovery runs: recovery from a forced mistake (the expert plays up to turn j, one non-optimal action is forced
      at j, the model plays on) needs runs with --intervention recover:J.
    </p>`;
  const rows = report.perturbation.flatMap((entry) => {
    const pooled = entry.cells.find((cell) => cell.budget === "pooled");
    return [
      html`<tr>
        <td class="model">${entry.model}</td>
        <td class="path">${breakAfterSlashes(entry.run)}</td>
        <td>${entry.perturbTurn}</td>
        <td>${pooled?.episodes ?? 0}</td>
        ${estimateCell(pooled?.recovery ?? null, "fraction")}
        <td class="wrap-text">${entry.problem ?? excludedText(entry.excluded)}</td>
      </tr>`,
    ];
  });
  return html`<h3>Recovery runs</h3>
    <div class="scroll">
      <table class="data">
        <tr>
          <th class="name">model</th>
          <th class="name">run</th>
          <th>j</th>
          <th>episodes</th>
          <th>success after the mistake</th>
          <th class="name">notes</th>
        </tr>
        ${rows}
      </table>
    </div>`;
}

export function examplesSection(report: StudyReport): SafeHtml {
  const episodes = report.examples.map(
    (example) =>
      html`<div class="episode">
        <strong>${example.model}</strong>
        <span class="note"
          >run ${example.run}, task ${example.taskId}, budget ${example.budget} (${example.budgetTurns} turns), sample
          ${example.sample}:</span
        >
        <span class="${example.success ? "ok" : "bad"}">${example.success ? "success" : example.stopReason}</span>
        <ol>
          ${example.turns.map((turn) => html`<li><code>${turn.reply === "" ? "(empty reply)" : turn.reply}</code> ${turn.invalid ? html`<span class="bad">invalid</span>` : turn.optimal === null ? null : turn.optimal ? html`<span class="ok">optimal</span>` : html`<span class="bad">not optimal</span>`}</li>`)}
        </ol>
      </div>`,
  );
  return html`<section id="examples">
    <h2>What the models replied</h2>
    <p class="lead">
      One failed episode per model at its tightest announced budget (a successful one when none failed), reply by reply,
      with the oracle's verdict on each action.
    </p>
    ${episodes.length === 0 ? html`<p class="note">No episodes.</p>` : episodes}
  </section>`;
}

/** A column of the configs table: its title, how its cells wrap, and a run's value in it. */
interface RunColumn {
  readonly title: string;
  readonly cell: "path" | "model" | "wrap-text" | "name" | "number";
  readonly value: (run: StudyRun) => string;
}

const RUN_COLUMNS: readonly RunColumn[] = [
  { title: "run", cell: "path", value: (run) => run.id },
  { title: "model", cell: "model", value: (run) => run.model },
  { title: "env", cell: "wrap-text", value: (run) => run.variant },
  { title: "budget", cell: "name", value: (run) => run.mode },
  {
    title: "kind",
    cell: "name",
    value: (run) => `${run.kind}${run.perturbTurn === null ? "" : ` (j = ${run.perturbTurn})`}`,
  },
  { title: "policy", cell: "path", value: (run) => run.policy },
  { title: "seed", cell: "number", value: (run) => String(run.seed) },
  { title: "tasks x samples", cell: "number", value: (run) => `${run.tasks} x ${run.samples}` },
  { title: "budgets", cell: "wrap-text", value: (run) => run.budgets.join(", ") },
  { title: "K", cell: "wrap-text", value: (run) => run.ks.join(", ") },
  { title: "episodes", cell: "number", value: (run) => String(run.episodes) },
  { title: "status", cell: "name", value: (run) => run.status },
  { title: "code", cell: "path", value: (run) => run.codeVersion },
];

const runCell = (column: RunColumn, run: StudyRun): SafeHtml =>
  column.cell === "path"
    ? html`<td class="path">${breakAfterSlashes(column.value(run))}</td>`
    : html`<td class="${column.cell === "number" ? "" : column.cell}">${column.value(run)}</td>`;

/** The runs with their configs; a column with the same value for every run is said once above the table, so the
 * table keeps to the page's width. */
export function configSection(report: StudyReport): SafeHtml {
  const shared =
    report.runs.length < 2
      ? []
      : RUN_COLUMNS.filter((column) => column.title !== "run" && new Set(report.runs.map(column.value)).size === 1);
  const columns = RUN_COLUMNS.filter((column) => !shared.includes(column));
  const first = report.runs[0];
  const common =
    shared.length === 0 || first === undefined
      ? null
      : html`<p>Every run: ${shared.map((column) => `${column.title} ${column.value(first)}`).join("; ")}.</p>`;
  const rows = report.runs.map(
    (run) =>
      html`<tr>
        ${columns.map((column) => runCell(column, run))}
      </tr>`,
  );
  const configs = report.runs.map(
    (run) =>
      html`<details>
        <summary>${run.id}</summary>
        <pre>${JSON.stringify(run.config, null, 2)}</pre>
      </details>`,
  );
  const training = report.training.map(
    (entry) =>
      html`<details>
        <summary>training ${entry.name} (${entry.dir})</summary>
        <pre>${JSON.stringify(entry.config, null, 2)}</pre>
      </details>`,
  );
  const settings = report.settings;
  return html`<section id="configs">
    <h2>Configs and seeds</h2>
    <p class="lead">
      Everything needed to rerun these numbers: every run's stored config and seed, and the report's own settings
      (bootstrap: ${settings.bootstrap} resamples over tasks, seed ${settings.seed},
      ${Math.round(settings.level * 100)}% percentile intervals). Store: ${report.store}; report built by budgetrl
      ${report.codeVersion}.
    </p>
    ${common}
    <div class="scroll">
      <table class="data">
        <tr>
          ${columns.map((column) => html`<th class="${column.cell === "number" ? "" : "name"}">${column.title}</th>`)}
        </tr>
        ${rows}
      </table>
    </div>
    ${configs}${training}
  </section>`;
}

export function notesSection(report: StudyReport): SafeHtml {
  if (report.notes.length === 0) return html``;
  return html`<section id="notes">
    <h2>Notes</h2>
    <ul class="notes">
      ${report.notes.map((note) => html`<li>${note}</li>`)}
    </ul>
  </section>`;
}
