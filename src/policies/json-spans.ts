// Where JSON values sit in a model's text, so that a parsed tool call keeps the model's own text for its
// arguments (1.0 stays 1.0, key order and spacing as written; JSON.parse then JSON.stringify would lose them).
// Every span is checked with JSON.parse, a real parser: this file only finds where values end.
//
// - jsonValueEnd(text, start): the index just after the one JSON value that starts at `start` (after
//   whitespace), or undefined when no JSON value starts there.
// - objectMembers(text): the members of a JSON object text, key -> the raw text of its value (a repeated key
//   keeps its last value, as JSON.parse does), or undefined when the text is not one JSON object.

const WHITESPACE = /\s/;

function skipWhitespace(text: string, at: number): number {
  let i = at;
  while (i < text.length && WHITESPACE.test(text[i]!)) i++;
  return i;
}

/** The index after the string literal that opens at `at` (a '"'), or text.length when it never closes. */
function stringEnd(text: string, at: number): number {
  let i = at + 1;
  while (i < text.length) {
    const char = text[i]!;
    if (char === "\\") i += 2;
    else if (char === '"') return i + 1;
    else i++;
  }
  return text.length;
}

/** Where the value starting at `at` would end, by its brackets, strings and delimiters alone (not validated). */
function scanValueEnd(text: string, at: number): number {
  const first = text[at];
  if (first === '"') return stringEnd(text, at);
  if (first !== "{" && first !== "[") {
    let i = at;
    while (i < text.length && !/[\s,;:\]}[{"]/.test(text[i]!)) i++;
    return i;
  }
  let depth = 0;
  let i = at;
  while (i < text.length) {
    const char = text[i]!;
    if (char === '"') {
      i = stringEnd(text, i);
      continue;
    }
    if (char === "{" || char === "[") depth++;
    else if (char === "}" || char === "]") {
      depth--;
      if (depth === 0) return i + 1;
    }
    i++;
  }
  return text.length;
}

function parses(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/** The index just after the JSON value starting at `start` (leading whitespace skipped); undefined when none does. */
export function jsonValueEnd(text: string, start = 0): number | undefined {
  const at = skipWhitespace(text, start);
  if (at >= text.length) return undefined;
  const end = scanValueEnd(text, at);
  return end > at && parses(text.slice(at, end)) ? end : undefined;
}

/** The members of a JSON object text: each key with the raw text of its value; undefined when it is not one. */
export function objectMembers(text: string): Map<string, string> | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (value === null || typeof value !== "object" || Array.isArray(value)) return undefined;
  // The text is one valid object: its members can be walked by brackets and strings alone.
  const members = new Map<string, string>();
  let at = skipWhitespace(text, skipWhitespace(text, 0) + 1);
  while (text[at] === '"') {
    const keyEnd = stringEnd(text, at);
    const key = JSON.parse(text.slice(at, keyEnd)) as string;
    const valueStart = skipWhitespace(text, skipWhitespace(text, keyEnd) + 1);
    const valueEnd = scanValueEnd(text, valueStart);
    members.delete(key);
    members.set(key, text.slice(valueStart, valueEnd));
    at = skipWhitespace(text, valueEnd);
    if (text[at] === ",") at = skipWhitespace(text, at + 1);
  }
  return members;
}
