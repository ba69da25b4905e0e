// Escaping for the HTML report. Everything that comes from a store (run names, policy specs, configs, model
// replies) is untrusted text: it reaches the page only through `escapeHtml` (element content and quoted
// attribute values) or `jsonForScript` (data blocks read with JSON.parse, never executed).

const HTML_ESCAPES: Readonly<Record<string, string>> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
  "`": "&#96;",
};

/** Text safe in element content and in quoted attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"'`]/g, (char) => HTML_ESCAPES[char]!);
}

/**
 * JSON safe inside `<script type="application/json">`: no "<" (so no "</script>" and no "<!--"), ">" or "&"
 * outside escapes, and no U+2028/U+2029; JSON.parse reads it back to the same value.
 */
export function jsonForScript(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, "\\u003c")
    .replace(/>/g, "\\u003e")
    .replace(/&/g, "\\u0026")
    .replace(/\u2028/g, "\\u2028")
    .replace(/\u2029/g, "\\u2029");
}

/** A short id made only of [a-z0-9-], for element ids built from names. */
export function slug(text: string): string {
  const cleaned = text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "");
  return cleaned === "" ? "x" : cleaned.slice(0, 40);
}

/** Markup built by `html` (its interpolations already escaped). */
export interface SafeHtml {
  readonly html: string;
}

type Interpolation = string | number | SafeHtml | readonly SafeHtml[] | null | undefined;

const isSafe = (value: unknown): value is SafeHtml =>
  typeof value === "object" && value !== null && !Array.isArray(value) && typeof (value as SafeHtml).html === "string";

/** A template tag that escapes every interpolated string or number; SafeHtml (and arrays of it) go in as is. */
export function html(strings: TemplateStringsArray, ...values: readonly Interpolation[]): SafeHtml {
  let out = strings[0] ?? "";
  values.forEach((value, i) => {
    if (value === null || value === undefined) out += "";
    else if (Array.isArray(value)) out += value.map((part: SafeHtml) => part.html).join("");
    else if (isSafe(value)) out += value.html;
    else out += escapeHtml(String(value));
    out += strings[i + 1] ?? "";
  });
  return { html: out };
}

/** Escaped text that may wrap after each "/" (paths and policy specs in narrow table cells). */
export function breakAfterSlashes(text: string): SafeHtml {
  return { html: text.split("/").map(escapeHtml).join("/<wbr>") };
}
