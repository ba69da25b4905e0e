// The frame of every view page: the head (the stylesheet and the script served by the view itself, no CDN), a top bar
// naming what is viewed, and the page's body. Pages are built with report/html/escape.ts's `html` tag, which escapes
// every interpolated string: the one way text from the store reaches a page.
import { html, type SafeHtml } from "../report/html/escape.js";
import { runsUrl } from "../report/view-links.js";

export const ASSET_PATHS = { css: "/assets/view.css", script: "/assets/view.js" } as const;

/** What every page shows in its top bar: what the view is over. */
export interface PageFrame {
  readonly source: string;
}

/** A whole page: `title` in the tab, `body` under the top bar. */
export function page(frame: PageFrame, title: string, body: SafeHtml): string {
  return `<!doctype html>\n${
    html`<html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>${title} · budgetrl view</title>
        <link rel="stylesheet" href="${ASSET_PATHS.css}" />
        <script src="${ASSET_PATHS.script}" defer></script>
      </head>
      <body>
        <header class="top">
          <a class="brand" href="${runsUrl("")}">budgetrl view</a>
          <span class="where">${frame.source}</span>
        </header>
        <main>${body}</main>
      </body>
    </html>`.html
  }\n`;
}

/** The page of a failed request: its status and message, as text. */
export function errorPage(frame: PageFrame, status: number, message: string): string {
  return page(
    frame,
    `Error ${status}`,
    html`<h1>${status === 404 ? "Not found" : status === 400 ? "Bad request" : `Error ${status}`}</h1>
      <p class="fail">${message}</p>
      <p><a href="${runsUrl("")}">All runs</a></p>`,
  );
}
