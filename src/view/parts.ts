// Small pieces the view's pages share: numbers as the terminal tables print them, a pager over server-side pages,
// outcome tags, and the options of a filter's select. Every one is built with the escaping `html` tag.
import { html, type SafeHtml } from "../report/html/escape.js";
import { viewUrl } from "../report/view-links.js";

/** A share as a percentage with one decimal ("41.3%"), "-" when there is none. */
export function percent(value: number): string {
  return Number.isFinite(value) ? `${(value * 100).toFixed(1)}%` : "-";
}

/** A number with three decimals, as `show` prints estimates ("0.413"), "-" when there is none. */
export function fixed3(value: number): string {
  return Number.isFinite(value) ? value.toFixed(3) : "-";
}

/** The URL of this page with some parameters replaced (undefined: removed); the others kept in order. */
export function withParams(
  path: string,
  params: URLSearchParams,
  changes: Readonly<Record<string, string | undefined>>,
  hash = "",
): string {
  const kept: [string, string][] = [...params.entries()].filter(([name]) => !(name in changes));
  for (const [name, value] of Object.entries(changes)) if (value !== undefined) kept.push([name, value]);
  return `${viewUrl("", path, kept)}${hash}`;
}

/** "Page 2 of 9" with the links before and after it; the page number is the query parameter `name`. */
export function pager(
  path: string,
  params: URLSearchParams,
  name: string,
  position: { readonly page: number; readonly pages: number },
  hash = "",
): SafeHtml | null {
  if (position.pages <= 1) return null;
  const link = (to: number, text: string): SafeHtml =>
    to < 1 || to > position.pages
      ? html`<span class="muted">${text}</span>`
      : html`<a href="${withParams(path, params, { [name]: String(to) }, hash)}">${text}</a>`;
  return html`<div class="pager">
    ${link(1, "« first")} ${link(position.page - 1, "‹ previous")}
    <span>page ${position.page} of ${position.pages}</span>
    ${link(position.page + 1, "next ›")} ${link(position.pages, "last »")}
  </div>`;
}

/** The options of a select: "any" first, then each value, the chosen one selected. */
export function options(values: readonly string[], chosen: string | undefined, any = "any"): SafeHtml[] {
  return [
    html`<option value="">${any}</option>`,
    ...values.map(
      (value) => html`<option value="${value}" ${value === chosen ? html`selected` : null}>${value}</option>`,
    ),
  ];
}

/** How an episode ended, as a coloured tag. */
export function outcomeTag(success: boolean, stopReason: string): SafeHtml {
  if (success) return html`<span class="tag ok">success</span>`;
  if (stopReason === "error") return html`<span class="tag warn">policy error</span>`;
  if (stopReason === "max_turns") return html`<span class="tag fail">out of turns</span>`;
  return html`<span class="tag fail">${stopReason.replace(/_/g, " ")}</span>`;
}
