// The comparison page (/compare?run=A&run=B[&run=C...]): the runs, the paired differences of each run's Pass@1 from
// the first's at every budget they share, the per-task table at one budget (the tasks where the runs part most first,
// paged), and, for a task, budget and sample, the runs' episodes side by side (side-by-side.ts).
import { html, type SafeHtml } from "../report/html/escape.js";
import { compareUrl, runUrl, VIEW_PATHS } from "../report/view-links.js";
import type { PairedDifference } from "../metrics/paired-difference.js";
import type { BudgetDifferences, CompareTaskRow, ComparedRun } from "./compare-data.js";
import { options, pager, percent } from "./parts.js";
import { budgetModeText, interventionOf, policyText } from "./run-facts.js";
import type { Paged } from "./run-data.js";
import { sideBySide, type SideBySide } from "./side-by-side.js";

export interface ComparePageData {
  readonly runs: readonly ComparedRun[];
  readonly budgets: readonly string[];
  /** The budget of the task table (the first shared one unless asked); undefined when the runs share none. */
  readonly budget: string | undefined;
  readonly sample: number;
  readonly differences: readonly BudgetDifferences[];
  readonly tasks: Paged<CompareTaskRow>;
  readonly side: SideBySide | null;
}

const points = (value: number): string =>
  Number.isFinite(value) ? `${value >= 0 ? "+" : ""}${(value * 100).toFixed(1)}` : "-";

function differenceCell(difference: PairedDifference): SafeHtml {
  const { value, low, high } = difference.difference;
  const clear = Number.isFinite(low) && (low > 0 || high < 0);
  return html`<td class="num ${clear ? (value > 0 ? "ok" : "fail") : ""}">
    ${points(value)} ${Number.isFinite(low) ? `[${points(low)}, ${points(high)}]` : ""}
    <span class="muted">· ${difference.shared} tasks</span>
  </td>`;
}

function runsTable(runs: readonly ComparedRun[]): SafeHtml {
  return html`<table class="data" id="compared-runs">
    <tr>
      <th></th>
      <th>run</th>
      <th>env</th>
      <th>policy</th>
      <th>budget mode</th>
    </tr>
    ${runs.map(
      ({ facts }, i) =>
        html`<tr>
          <td>${i === 0 ? "reference" : `run ${i + 1}`}</td>
          <td class="id"><a href="${runUrl("", facts.record.id)}">${facts.record.id}</a></td>
          <td>${facts.record.env}</td>
          <td class="id">${policyText(facts)} ${interventionOf(facts)}</td>
          <td>${budgetModeText(facts)}</td>
        </tr>`,
    )}
  </table>`;
}

function differencesTable(data: ComparePageData): SafeHtml {
  const others = data.runs.slice(1);
  return html`<h2 id="differences">Paired differences</h2>
    <p class="muted">
      Pass@1 of each run minus the reference's, in points: the per-task differences averaged over the tasks both ran
      (matched by task id), with a 95% bootstrap interval over tasks; green or red when the interval excludes 0.
    </p>
    <table class="data" id="difference-table">
      <tr>
        <th>T</th>
        ${others.map(({ facts }) => html`<th class="id">${facts.record.id} − reference</th>`)}
      </tr>
      ${data.differences.map(
        (row) =>
          html`<tr>
            <td>${row.budget}</td>
            ${row.differences.map(differenceCell)}
          </tr>`,
      )}
    </table>`;
}

function focusForm(data: ComparePageData): SafeHtml {
  return html`<form class="filters" method="get" action="${VIEW_PATHS.compare}" data-autosubmit>
    ${data.runs.map(({ facts }) => html`<input type="hidden" name="run" value="${facts.record.id}" />`)}
    <label
      >budget
      <select name="budget">
        ${options(data.budgets, data.budget, data.budgets[0] ?? "")}
      </select></label
    >
    <label>sample <input type="number" name="sample" min="0" value="${data.sample}" /></label>
    <button type="submit">Show</button>
  </form>`;
}

function tasksTable(data: ComparePageData, params: URLSearchParams): SafeHtml {
  const ids = data.runs.map(({ facts }) => facts.record.id);
  const budget = data.budget;
  return html`<h2 id="tasks">Tasks at T = ${budget ?? "-"}</h2>
    ${focusForm(data)}
    <p class="muted">
      ${data.tasks.total} tasks, where the runs part most first: each run's success rate on the task; a task opens its
      episodes side by side (sample ${data.sample}).
    </p>
    <div class="scroll">
      <table class="data" id="compare-tasks">
        <tr>
          <th>task</th>
          ${ids.map((id) => html`<th class="id">${id}</th>`)}
          <th class="num">largest gap (points)</th>
        </tr>
        ${data.tasks.rows.map(
          (row) =>
            html`<tr>
              <td class="id">
                <a
                  href="${compareUrl("", ids, { ...(budget === undefined ? {} : { budget }), task: row.taskId, sample: data.sample })}#side-by-side"
                  >${row.taskId}</a
                >
              </td>
              ${row.rates.map((rate) => html`<td class="num">${rate === undefined ? "-" : percent(rate)}</td>`)}
              <td class="num">${Number.isNaN(row.spread) ? "-" : (row.spread * 100).toFixed(1)}</td>
            </tr>`,
        )}
      </table>
    </div>
    ${pager(VIEW_PATHS.compare, params, "cpage", data.tasks, "#tasks")}`;
}

export function comparePage(data: ComparePageData, params: URLSearchParams): SafeHtml {
  const envs = new Set(data.runs.map(({ facts }) => facts.record.env));
  return html`<h1>Compare ${data.runs.length} runs</h1>
    ${runsTable(data.runs)}
    ${envs.size > 1 ? html`<p class="warn">These runs are on different envs: their tasks do not match.</p>` : null}
    ${data.budgets.length === 0 ? html`<p class="warn">These runs share no budget.</p>` : differencesTable(data)}
    ${data.side === null ? null : sideBySide(data.side)} ${tasksTable(data, params)}`;
}
