// The runs list (/): every run with its env, policy, budget mode, tasks x samples, status, when it was made and
// Pass@1 at each budget (each a link to the run's episodes at that budget); a search box and filters (env, budget
// mode, status), a page of 50 at a time, and boxes to tick runs to compare. A study folder's runs come grouped by seed,
// env and model, in the order of the study's plan.
import { breakAfterSlashes, html, type SafeHtml } from "../report/html/escape.js";
import { compareUrl, runUrl, VIEW_PATHS } from "../report/view-links.js";
import { outcomeTag, options, pager, percent } from "./parts.js";
import { budgetModeText, interventionOf, policyText } from "./run-facts.js";
import type { RunListEntry, RunsQuery, RunsView } from "./runs-data.js";

function passCells(entry: RunListEntry): SafeHtml {
  if (entry.pass1.length === 0) return html`<span class="muted">-</span>`;
  return html`${entry.pass1.map(
    ({ budget, value }) =>
      html`<a class="tag" href="${runUrl("", entry.facts.record.id, { budget })}" title="Pass@1 at T = ${budget}"
        >${budget}: ${percent(value)}</a
      > `,
  )}`;
}

function runRow(entry: RunListEntry, grouped: boolean): SafeHtml {
  const { record } = entry.facts;
  const intervention = interventionOf(entry.facts);
  return html`<tr data-run="${record.id}">
    <td><input type="checkbox" name="run" value="${record.id}" aria-label="compare ${record.id}" /></td>
    <td class="id"><a href="${runUrl("", record.id)}">${record.id}</a></td>
    ${
      grouped
        ? html`<td>${entry.group?.model ?? ""}</td>
            <td>${entry.group?.kind ?? budgetModeText(entry.facts)}</td>`
        : html`<td>${record.env}</td>`
    }
    <td class="id policy">
      ${breakAfterSlashes(policyText(entry.facts))}${intervention === "" ? null : html` <span class="tag">${intervention}</span>`}
    </td>
    ${grouped ? null : html`<td>${budgetModeText(entry.facts)}</td>`}
    <td class="num">${entry.tasks} × ${entry.samples}</td>
    <td>${record.status === "complete" ? "complete" : html`<span class="warn">${record.status}</span>`}</td>
    <td class="muted when" title="${record.createdAt}">${record.createdAt.slice(0, 16).replace("T", " ")}</td>
    <td class="pass">${passCells(entry)}</td>
    <td class="num">
      ${entry.episodes}${entry.errors === 0 ? null : html` ${outcomeTag(false, "error")} ${entry.errors}`}
    </td>
  </tr>`;
}

/** A study's group heading: "seed 1 · vault", or "ranges · vault" (the reference policies every seed shares). */
function groupTitle(entry: RunListEntry): string {
  const group = entry.group;
  if (group === null) return "runs outside the study's plan";
  return `${group.seed === null ? "ranges" : `seed ${group.seed}`} · ${group.env}`;
}

function rows(entries: readonly RunListEntry[], grouped: boolean, columns: number): SafeHtml[] {
  const out: SafeHtml[] = [];
  let last: string | undefined;
  for (const entry of entries) {
    const title = groupTitle(entry);
    if (grouped && title !== last)
      out.push(
        html`<tr class="group">
          <th colspan="${columns}">${title}</th>
        </tr>`,
      );
    last = title;
    out.push(runRow(entry, grouped));
  }
  return out;
}

function filters(view: RunsView, query: RunsQuery): SafeHtml {
  return html`<form class="filters" method="get" action="${VIEW_PATHS.runs}" data-autosubmit>
    <label
      >search <input type="search" name="q" value="${query.search ?? ""}" placeholder="name, env, policy, model"
    /></label>
    <label
      >env
      <select name="env">
        ${options(view.envs, query.env)}
      </select></label
    >
    <label
      >budget mode
      <select name="mode">
        ${options(view.modes, query.mode)}
      </select></label
    >
    <label
      >status
      <select name="status">
        ${options(view.statuses, query.status)}
      </select></label
    >
    ${query.runs.map((run) => html`<input type="hidden" name="run" value="${run}" />`)}
    <button type="submit">Apply</button>
    <a href="${VIEW_PATHS.runs}">clear</a>
  </form>`;
}

export function runsPage(view: RunsView, query: RunsQuery, params: URLSearchParams, grouped: boolean): SafeHtml {
  const head = [
    "",
    "run",
    // A study's groups name the env; a run's kind says its budget mode.
    ...(grouped ? ["model", "kind", "policy"] : ["env", "policy", "budget mode"]),
    "tasks × samples",
    "status",
    "created",
    "Pass@1 per budget",
    "episodes",
  ];
  return html`<h1>Runs</h1>
    <p class="muted">
      ${view.matching === view.stored ? `${view.stored} runs` : `${view.matching} of ${view.stored} runs`}. Pass@1 is
      the mean over tasks at each budget T, as <code>budgetrl show</code> prints it; a budget opens the run's episodes
      there.
    </p>
    ${filters(view, query)}
    <form method="get" action="${compareUrl("", [])}">
      <div class="scroll">
        <table class="data" id="runs">
          <tr>
            ${head.map((name) => html`<th>${name}</th>`)}
          </tr>
          ${rows(view.entries, grouped, head.length)}
        </table>
      </div>
      ${view.entries.length === 0 ? html`<p class="muted">No run matches.</p>` : null}
      <p><button type="submit" id="compare">Compare the ticked runs</button></p>
    </form>
    ${pager(VIEW_PATHS.runs, params, "page", view)}`;
}
