// A run's episode list: the filter form (budget, sample, task, outcome; a GET form, so a filtered list is a link) and
// one page of episodes, each opening its episode page within the same filter (whose next and previous episodes are
// the list's).
import { html, type SafeHtml } from "../report/html/escape.js";
import { episodeUrl, runUrl, VIEW_PATHS } from "../report/view-links.js";
import { EPISODE_OUTCOMES, type EpisodeFilter, type EpisodeListRow } from "../store/episode-list.js";
import { options, outcomeTag } from "./parts.js";
import type { Paged } from "./run-data.js";

const OUTCOME_WORDS: Readonly<Record<(typeof EPISODE_OUTCOMES)[number], string>> = {
  success: "success",
  failure: "failure",
  error: "policy error",
  invalid: "an invalid reply",
  truncated: "out of turns (truncated)",
};

export function episodeFilterForm(run: string, budgets: readonly string[], filter: EpisodeFilter): SafeHtml {
  return html`<form
    class="filters"
    id="episode-filters"
    method="get"
    action="${VIEW_PATHS.run}#episodes"
    data-autosubmit
  >
    <input type="hidden" name="id" value="${run}" />
    <label
      >budget
      <select name="budget">
        ${options(budgets, filter.budget)}
      </select></label
    >
    <label
      >outcome
      <select name="outcome">
        <option value="">any</option>
        ${EPISODE_OUTCOMES.map(
          (outcome) =>
            html`<option value="${outcome}" ${outcome === filter.outcome ? html`selected` : null}>
              ${OUTCOME_WORDS[outcome]}
            </option>`,
        )}
      </select>
    </label>
    <label>sample <input type="number" name="sample" min="0" value="${filter.sample ?? ""}" /></label>
    <label>task # <input type="number" name="task" min="0" value="${filter.task ?? ""}" /></label>
    <button type="submit">Filter</button>
    <a href="${runUrl("", run)}#episodes">clear</a>
  </form>`;
}

function episodeRow(run: string, row: EpisodeListRow, filter: EpisodeFilter): SafeHtml {
  const href = episodeUrl("", { run, task: row.taskIndex, budget: row.budget, sample: row.sample }, filter);
  return html`<tr>
    <td><a href="${href}">open</a></td>
    <td class="num">${row.taskIndex}</td>
    <td class="id">${row.taskId}</td>
    <td>${row.budget}</td>
    <td class="num">${row.sample}</td>
    <td>${outcomeTag(row.success, row.stopReason)}</td>
    <td class="num">${row.turnsUsed} / ${row.budgetTurns}</td>
    <td class="num">${row.invalidTurns === 0 ? "0" : html`<span class="warn">${row.invalidTurns}</span>`}</td>
    <td class="num">${row.return}</td>
    <td class="id muted">${row.error === null ? "" : row.error.slice(0, 160)}</td>
  </tr>`;
}

export function episodeTable(run: string, page: Paged<EpisodeListRow>, filter: EpisodeFilter): SafeHtml {
  if (page.total === 0) return html`<p class="muted" id="episode-count">No episode matches.</p>`;
  return html`<p class="muted" id="episode-count">${page.total} episodes</p>
    <div class="scroll">
      <table class="data" id="episode-table">
        <tr>
          <th></th>
          <th class="num">#</th>
          <th>task</th>
          <th>T</th>
          <th class="num">sample</th>
          <th>outcome</th>
          <th class="num">turns</th>
          <th class="num">invalid</th>
          <th class="num">return</th>
          <th>error</th>
        </tr>
        ${page.rows.map((row) => episodeRow(run, row, filter))}
      </table>
    </div>`;
}
