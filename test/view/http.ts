// A plain HTTP request to a view under test (node:http, so that any header, Host included, is sent as given), and
// the text of an element of its page.
import { request } from "node:http";

export interface Answer {
  readonly status: number;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  readonly body: string;
}

export function get(
  base: string,
  path: string,
  headers: Readonly<Record<string, string>> = {},
  method = "GET",
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const sent = request(new URL(path, base), { method, headers }, (response) => {
      let body = "";
      response.setEncoding("utf8");
      response.on("data", (chunk: string) => (body += chunk));
      response.on("end", () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body }));
    });
    sent.on("error", reject);
    sent.end();
  });
}

/** HTML entities back to text (what a browser shows of escaped text). */
export function unescapeHtml(text: string): string {
  return text
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&#96;/g, "`")
    .replace(/&amp;/g, "&");
}
