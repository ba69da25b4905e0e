// An episode's page (/episode?run=RUN&task=I&budget=T&sample=S): the episode's facts, its system prompt, and its
// trajectory turn by turn (turn-card.ts), with links (and keys: j or the right arrow, k or the left arrow) to the next
// and previous episodes of the list it was opened from (its filter travels in the in-* parameters).
import { clocksBeforeTurns, turnsLeft } from "../core/turn-clock.js";
import type { Episode } from "../core/episode.js";
import { html, type SafeHtml } from "../report/html/escape.js";
import { episodeUrl, runUrl } from "../report/view-links.js";
import type { EpisodeFilter } from "../store/episode-list.js";
import type { EpisodeKeyValues } from "../store/pages.js";
import { messageBlock, turnCard } from "./turn-card.js";
import { outcomeTag } from "./parts.js";

export interface EpisodePageData {
  readonly episode: Episode;
  /** The list the episode was opened from, and its neighbours there. */
  readonly filter: EpisodeFilter;
  readonly previous: EpisodeKeyValues | null;
  readonly next: EpisodeKeyValues | null;
}

function navLink(
  episode: Episode,
  key: EpisodeKeyValues | null,
  filter: EpisodeFilter,
  rel: "prev" | "next",
): SafeHtml {
  const text = rel === "next" ? "next episode ›" : "‹ previous episode";
  if (key === null) return html`<span class="muted">${text}</span>`;
  const href = episodeUrl("", { run: episode.run, task: key[0], budget: key[1], sample: key[2] }, filter);
  return html`<a rel="${rel}" href="${href}">${text}</a>`;
}

function nav(data: EpisodePageData): SafeHtml {
  return html`<div class="nav">
    ${navLink(data.episode, data.previous, data.filter, "prev")}
    ${navLink(data.episode, data.next, data.filter, "next")}
    <a href="${runUrl("", data.episode.run, data.filter)}">back to the list</a>
    <span class="keys">keys: j or → next, k or ← previous</span>
  </div>`;
}

function factsOf(episode: Episode): SafeHtml {
  const fact = (name: string, value: string | number): SafeHtml => html`<span>${name} <b>${value}</b></span>`;
  const { budget } = episode;
  return html`<div class="facts">
    ${outcomeTag(episode.success, episode.stopReason)} ${fact("task", `${episode.taskId} (#${episode.taskIndex})`)}
    ${fact("budget", `${budget.label} = ${budget.turns} turns, ${budget.mode}${budget.scope === "user-turn" ? ", per user turn" : ""}`)}
    ${fact("sample", episode.sample)} ${fact("seed", episode.seed)} ${fact("turns used", episode.turnsUsed)}
    ${fact("ended", `${episode.stopReason}${episode.stopLimit === null ? "" : ` (${episode.stopLimit})`}`)}
    ${episode.successTurn === null ? null : fact("success at turn", episode.successTurn)}
    ${fact("return", episode.return)}
  </div>`;
}

export function episodePage(data: EpisodePageData): SafeHtml {
  const { episode } = data;
  const clocks = clocksBeforeTurns(
    episode.budget,
    episode.turns.map((turn) => turn.segment),
  );
  const annotated = episode.turns.some((turn) => turn.optimal !== undefined);
  const userTurns = episode.budget.scope === "user-turn" || episode.turns.some((turn) => turn.segment !== 0);
  return html`<p><a href="${runUrl("", episode.run)}">${episode.run}</a> · ${episode.env}</p>
    <h1>Task ${episode.taskId}, T = ${episode.budget.label}, sample ${episode.sample}</h1>
    ${factsOf(episode)} ${nav(data)}
    ${episode.error === undefined ? null : html`<p class="fail">policy error: ${episode.error}</p>`}
    ${
      annotated
        ? null
        : html`<p class="muted">
            No oracle annotations: the env has no oracle, or the run was made with --no-annotate; whether a move was
            optimal is not known.
          </p>`
    }
    ${
      episode.preamble.length === 0
        ? null
        : html`<details>
            <summary>system prompt and what came before the first turn</summary>
            ${episode.preamble.map(messageBlock)}
          </details>`
    }
    ${episode.turns.map((turn, i) =>
      turnCard(turn, {
        turnsLeft: turnsLeft(clocks[i]!),
        next: episode.turns[i + 1],
        userTurn: userTurns ? clocks[i]!.segment : null,
      }),
    )}
    ${episode.turns.length === 0 ? html`<p class="muted">No turn was played.</p>` : nav(data)}`;
}
