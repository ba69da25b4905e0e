// The episodes of one task, budget and sample from each compared run, side by side: one column per run, one row per
// turn (the observation folded, the reply, the parsed action, invalid and the oracle's verdict), the first turn
// where they part highlighted (first-divergence.ts).
import type { Episode, Turn } from "../core/episode.js";
import { html, type SafeHtml } from "../report/html/escape.js";
import { episodeUrl } from "../report/view-links.js";
import { outcomeTag } from "./parts.js";
import { messageBlock } from "./turn-card.js";

export interface SideBySide {
  readonly taskId: string;
  readonly budget: string;
  readonly sample: number;
  readonly runs: readonly string[];
  /** Per run, its episode (undefined: the run has no such episode). */
  readonly episodes: readonly (Episode | undefined)[];
  readonly divergence: number | null;
}

function turnCell(turn: Turn | undefined, diverges: boolean): SafeHtml {
  if (turn === undefined) return html`<td class="${diverges ? "diverge" : ""} muted">(ended)</td>`;
  return html`<td class="${diverges ? "diverge" : ""}">
    <details>
      <summary>observation</summary>
      ${turn.observation.map(messageBlock)}
    </details>
    ${messageBlock(turn.action)}
    <div>
      <code class="parsed">${turn.parsedAction ?? "did not parse"}</code>
      ${turn.invalid ? html`<span class="tag warn">invalid</span>` : null}
      ${
        turn.optimal === undefined
          ? null
          : turn.optimal
            ? html`<span class="tag ok">optimal</span>`
            : html`<span class="tag fail">not optimal</span>`
      }
      ${
        turn.forced === undefined
          ? null
          : html`<span class="tag forced">${turn.forced.by === "expert" ? "expert move" : "forced error"}</span>`
      }
    </div>
  </td>`;
}

function episodeHead(run: string, episode: Episode | undefined): SafeHtml {
  if (episode === undefined) return html`<th class="id">${run}<br /><span class="muted">no such episode</span></th>`;
  const href = episodeUrl("", { run, task: episode.taskIndex, budget: episode.budget.label, sample: episode.sample });
  return html`<th class="id">
    <a href="${href}">${run}</a><br />${outcomeTag(episode.success, episode.stopReason)}
    <span class="muted">${episode.turnsUsed} turns</span>
  </th>`;
}

export function sideBySide(view: SideBySide): SafeHtml {
  const longest = Math.max(0, ...view.episodes.map((episode) => episode?.turns.length ?? 0));
  const rows = Array.from({ length: longest }, (_, at) => {
    const diverges = view.divergence === at + 1;
    return html`<tr class="${diverges ? "diverge" : ""}" ${diverges ? html`id="first-divergence"` : null}>
      <th class="num">${at + 1}</th>
      ${view.episodes.map((episode) => turnCell(episode?.turns[at], diverges))}
    </tr>`;
  });
  return html`<h2 id="side-by-side">Task ${view.taskId}, T = ${view.budget}, sample ${view.sample}</h2>
    <p id="divergence-note">
      ${
        view.divergence === null
          ? "The episodes never part: every turn made the same move."
          : html`The episodes part at <a href="#first-divergence">turn ${view.divergence}</a> (highlighted): the first
              turn whose move differs, or where one has ended and another goes on.`
      }
    </p>
    <div class="scroll">
      <table class="data side-table" id="side-table">
        <tr>
          <th>turn</th>
          ${view.runs.map((run, i) => episodeHead(run, view.episodes[i]))}
        </tr>
        ${rows}
      </table>
    </div>`;
}
