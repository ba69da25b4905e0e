// One turn of an episode as the episode page shows it: the observation as the agent read it (the budget sentence
// included: it is part of the stored observation), its reply, the parsed action, invalid, reward, the turns left
// before it, the oracle's verdict within those turns (where the run has oracle annotations), the expert's or the
// forced move of an intervention (with the policy's own reply, set aside), and for tool-calling envs (BFCL) each call
// with its result and the turn's state checks. Everything the model or the env wrote is text.
import type { Turn } from "../core/episode.js";
import type { Json } from "../core/json.js";
import type { Message } from "../core/message.js";
import { html, type SafeHtml } from "../report/html/escape.js";

/** "1 turn", "3 turns". */
const turnsText = (count: number): string => `${count} turn${count === 1 ? "" : "s"}`;

export function messageBlock(message: Message): SafeHtml {
  const calls = message.toolCalls ?? [];
  return html`<div class="message">
    <div class="role">${message.role}${message.toolCallId === undefined ? "" : ` · answers ${message.toolCallId}`}</div>
    ${
      message.content !== ""
        ? html`<pre class="text">${message.content}</pre>`
        : calls.length === 0
          ? html`<p class="muted">(empty)</p>`
          : null
    }
    ${
      calls.length === 0
        ? null
        : html`<pre class="text">${calls.map((call) => `${call.name}(${call.arguments})`).join("\n")}</pre>`
    }
  </div>`;
}

function forcedBlock(turn: Turn): SafeHtml | null {
  const forced = turn.forced;
  if (forced === undefined) return null;
  const who =
    forced.by === "expert"
      ? "The expert played this move (teacher-forced); the policy's own reply was asked for and set aside:"
      : "A forced error: this move was played in the policy's place; the policy's own reply, set aside:";
  return html`<div class="forced-note">
    <p><span class="tag forced">${forced.by === "expert" ? "expert move" : "forced error"}</span> ${who}</p>
    ${messageBlock(forced.policyAction)}
    <p class="muted">
      its action: <code>${forced.policyParsed ?? "did not parse"}</code>
      ${forced.policyOptimal ? html`<span class="tag ok">optimal</span>` : html`<span class="tag fail">not optimal</span>`}
    </p>
  </div>`;
}

function oracleTags(turn: Turn): SafeHtml {
  if (turn.optimal === undefined) return html``;
  const away = turn.remainingBefore === undefined ? "" : ` · success ${turnsText(turn.remainingBefore)} away`;
  const value = turn.valueBefore === undefined ? "" : ` · success probability ${turn.valueBefore.toFixed(3)}`;
  return html`${
      turn.optimal
        ? html`<span class="tag ok" data-optimal="true">optimal</span>`
        : html`<span class="tag fail" data-optimal="false">not optimal</span>`
    } <span class="muted">within the turns left${away}${value}</span>`;
}

/** The calls of a reply with their results (the tool messages of the next observation that answer them). */
function callsTable(turn: Turn, next: Turn | undefined): SafeHtml | null {
  const calls = turn.action.toolCalls ?? [];
  if (calls.length === 0) return null;
  const results = new Map(
    (next?.observation ?? []).flatMap((message) =>
      message.toolCallId === undefined ? [] : [[message.toolCallId, message.content] as const],
    ),
  );
  return html`<table class="data calls">
    <tr>
      <th>call</th>
      <th>result</th>
    </tr>
    ${calls.map(
      (call) =>
        html`<tr>
          <td><pre class="text">${call.name}(${call.arguments})</pre></td>
          <td><pre class="text">${results.get(call.id) ?? "(no result stored)"}</pre></td>
        </tr>`,
    )}
  </table>`;
}

const isObject = (value: Json | undefined): value is { readonly [key: string]: Json } =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** A check verdict ({ valid } or { valid: false, errorType, message, details }) in words. */
function verdictBlock(name: string, verdict: Json | undefined): SafeHtml | null {
  if (!isObject(verdict)) return null;
  if (verdict["valid"] === true) return html`<p><span class="tag ok">${name}: passed</span></p>`;
  return html`<p><span class="tag fail">${name}: failed</span> <code>${String(verdict["errorType"] ?? "")}</code></p>
    <pre class="text">${String(verdict["message"] ?? "")}</pre>
    ${
      verdict["details"] === undefined
        ? null
        : html`<details>
            <summary>details</summary>
            <pre class="text">${JSON.stringify(verdict["details"], null, 2)}</pre>
          </details>`
    }`;
}

/** The env's details of a turn: BFCL's state checks (the user turn's verdict, at the end the entry's), else as JSON. */
function detailsBlock(details: Json | undefined): SafeHtml | null {
  if (details === undefined) return null;
  if (isObject(details) && "turnVerdict" in details)
    return html`<div class="checks">
      ${verdictBlock(`state and result checks of user turn ${String(details["turn"] ?? "?")}`, details["turnVerdict"])}
      ${verdictBlock("the whole entry", details["verdict"])}
      ${
        details["turnsPassed"] === undefined
          ? null
          : html`<p class="muted">
              user turns passed: ${String(details["turnsPassed"])} of ${String(details["turns"])}
            </p>`
      }
    </div>`;
  return html`<details>
    <summary>the env's details</summary>
    <pre class="text">${JSON.stringify(details, null, 2)}</pre>
  </details>`;
}

export interface TurnContext {
  /** Turns left in the budget's scope before this turn, this one included. */
  readonly turnsLeft: number;
  readonly next: Turn | undefined;
  /** The user turn it was played in (the clock's segment before it), shown when the episode has several (BFCL). */
  readonly userTurn: number | null;
}

export function turnCard(turn: Turn, context: TurnContext): SafeHtml {
  return html`<section class="turn${turn.forced === undefined ? "" : " forced"}" id="turn-${turn.index}">
    <div class="head">
      <span class="index">Turn ${turn.index}</span>
      <span class="muted"
        >${turnsText(context.turnsLeft)}
        left${context.userTurn === null ? "" : ` · user turn ${context.userTurn}`}</span
      >
      ${turn.invalid ? html`<span class="tag warn" data-invalid="true">invalid reply</span>` : null} ${oracleTags(turn)}
      <span class="muted">reward ${turn.reward}</span>
      ${turn.terminated ? html`<span class="tag">terminated</span>` : null}
      ${turn.truncated ? html`<span class="tag">truncated</span>` : null}
    </div>
    <div class="body">
      <div class="observation">
        <h3>Observation</h3>
        ${turn.observation.map(messageBlock)}
      </div>
      <div class="reply">
        <h3>Reply${turn.forced === undefined ? "" : " played"}</h3>
        ${messageBlock(turn.action)}
        <p>parsed action: <code class="parsed">${turn.parsedAction ?? "did not parse"}</code></p>
        ${forcedBlock(turn)} ${callsTable(turn, context.next)} ${detailsBlock(turn.details)}
      </div>
    </div>
  </section>`;
}
