// A run's page (/run?id=RUN): what the run is, its Pass@(K,T) table as `show` prints it and as a heatmap with the
// intervals, the policy errors and invalid replies, the task table (sortable, paged), the episode list with its filters
// (budget, sample, task, outcome) and the run's stored config.
import { policySpecLabel } from "../core/policy-spec.js";
import { html, type SafeHtml } from "../report/html/escape.js";
import { renderPassTable } from "../report/pass-table.js";
import { policyErrorLine, runHeader } from "../report/run-header.js";
import { VIEW_PATHS, runUrl } from "../report/view-links.js";
import type { EpisodeFilter, EpisodeListRow } from "../store/episode-list.js";
import { episodeFilterForm, episodeTable } from "./episode-table.js";
import { passHeatmap } from "./pass-heatmap.js";
import { pager, percent, withParams } from "./parts.js";
import { budgetModeText, interventionOf, type RunFacts } from "./run-facts.js";
import type { Paged, RunTables, TaskRow, TaskSort } from "./run-data.js";

function factsLine(facts: RunFacts): SafeHtml {
  const { record, config } = facts;
  const intervention = interventionOf(facts);
  const fact = (name: string, value: string | number): SafeHtml => html`<span>${name} <b>${value}</b></span>`;
  return html`<div class="facts">
    ${fact("env", record.env)} ${fact("policy", config === null ? record.policy : policySpecLabel(config.policy))}
    ${intervention === "" ? null : fact("intervention", intervention)} ${fact("budget", budgetModeText(facts))}
    ${config === null ? null : fact("protocol", config.protocol)} ${fact("seed", record.seed)}
    ${fact("status", record.status)} ${fact("created", record.createdAt)} ${fact("code", record.codeVersion)}
  </div>`;
}

function passSection(facts: RunFacts, tables: RunTables): SafeHtml {
  const errors = policyErrorLine(tables.errors);
  const printed = `${runHeader(facts.record.id, facts.config!, tables.table)}\n\n${renderPassTable(tables.table)}`;
  return html`<h2 id="pass">Pass@(K,T)</h2>
    <pre class="text" id="pass-table">${printed}</pre>
    ${errors === "" ? null : html`<p class="warn">${errors}</p>`}
    ${tables.errors.first === undefined ? null : html`<p class="muted">first policy error: ${tables.errors.first}</p>`}
    <div class="scroll">${passHeatmap(tables.table)}</div>`;
}

function invalidSection(run: string, tables: RunTables): SafeHtml {
  if (tables.invalid.length === 0)
    return html`<h2 id="invalid">Invalid replies</h2>
      <p class="muted">No turn of the policy's own is stored.</p>`;
  return html`<h2 id="invalid">Invalid replies</h2>
    <p class="muted">
      The share of the policy's own turns whose reply could not be parsed or was not a valid action (a turn lost), the
      mean over tasks with a 95% bootstrap interval; the list below filters the episodes with one.
    </p>
    <table class="data" id="invalid-table">
      <tr>
        <th>T</th>
        <th class="num">invalid replies</th>
        <th class="num">interval</th>
        <th class="num">turns</th>
      </tr>
      ${tables.invalid.map(
        ({ budget, estimate }) =>
          html`<tr>
            <td><a href="${runUrl("", run, { budget, outcome: "invalid" })}">${budget}</a></td>
            <td class="num">${percent(estimate.value)}</td>
            <td class="num">
              ${Number.isFinite(estimate.low) ? `[${percent(estimate.low)}, ${percent(estimate.high)}]` : "-"}
            </td>
            <td class="num">${estimate.n}</td>
          </tr>`,
      )}
    </table>`;
}

function sortLink(params: URLSearchParams, sort: TaskSort, column: string, label: string): SafeHtml {
  const active = sort.column === column;
  const direction = active && sort.direction === "asc" ? "desc" : "asc";
  const arrow = active ? (sort.direction === "asc" ? " ▲" : " ▼") : "";
  const href = withParams(
    VIEW_PATHS.run,
    params,
    { tsort: column, "tsort-dir": direction, tpage: undefined },
    "#tasks",
  );
  return html`<a href="${href}">${label}${arrow}</a>`;
}

function taskCell(run: string, row: TaskRow, budget: string): SafeHtml {
  const cell = row.cells.get(budget);
  if (cell === undefined || cell.n === 0) return html`<td class="num muted">-</td>`;
  const href = runUrl("", run, { task: row.head.index, budget });
  return html`<td class="num">
    <a href="${href}">${percent(cell.c / cell.n)}</a> <span class="muted">${cell.c}/${cell.n}</span>
  </td>`;
}

function taskSection(facts: RunFacts, tasks: Paged<TaskRow>, sort: TaskSort, params: URLSearchParams): SafeHtml {
  const budgets = facts.config!.budgets.map((spec) => spec.label);
  return html`<h2 id="tasks">Tasks</h2>
    <p class="muted">
      ${tasks.total} tasks: each task's reference budget and optimal length, and its success rate at each budget (the
      share of its samples that succeeded, policy errors left out); a cell opens those episodes.
    </p>
    <div class="scroll">
      <table class="data" id="task-table">
        <tr>
          <th class="num">${sortLink(params, sort, "index", "#")}</th>
          <th>${sortLink(params, sort, "id", "task")}</th>
          <th class="num">${sortLink(params, sort, "reference", "reference")}</th>
          <th class="num">${sortLink(params, sort, "optimal", "optimal")}</th>
          ${budgets.map((budget) => html`<th class="num">${sortLink(params, sort, budget, `T = ${budget}`)}</th>`)}
        </tr>
        ${tasks.rows.map(
          (row) =>
            html`<tr>
              <td class="num">${row.head.index}</td>
              <td class="id">${row.head.id}</td>
              <td class="num">${row.head.referenceBudget}</td>
              <td class="num">${row.head.optimalTurns ?? "-"}</td>
              ${budgets.map((budget) => taskCell(facts.record.id, row, budget))}
            </tr>`,
        )}
      </table>
    </div>
    ${pager(VIEW_PATHS.run, params, "tpage", tasks, "#tasks")}`;
}

export interface RunPageData {
  readonly facts: RunFacts;
  readonly tables: RunTables | null;
  readonly taskSort: TaskSort;
  readonly filter: EpisodeFilter;
  readonly episodes: Paged<EpisodeListRow>;
}

export function runPage(data: RunPageData, params: URLSearchParams): SafeHtml {
  const { facts, tables } = data;
  const budgets = facts.config?.budgets.map((spec) => spec.label) ?? [];
  return html`<h1>${facts.record.id}</h1>
    ${factsLine(facts)}
    ${facts.problem === null ? null : html`<p class="fail">This run's tables cannot be shown: ${facts.problem}</p>`}
    ${tables === null ? null : html`${passSection(facts, tables)}${invalidSection(facts.record.id, tables)}`}
    ${tables === null ? null : taskSection(facts, tables.tasks, data.taskSort, params)}
    <h2 id="episodes">Episodes</h2>
    ${episodeFilterForm(facts.record.id, budgets, data.filter)}
    ${episodeTable(facts.record.id, data.episodes, data.filter)}
    ${pager(VIEW_PATHS.run, params, "page", data.episodes, "#episodes")}
    <h2 id="config">Config</h2>
    <details>
      <summary>The run's stored config (what --resume and show read)</summary>
      <pre class="text config">${JSON.stringify(facts.record.config, null, 2)}</pre>
    </details>`;
}
