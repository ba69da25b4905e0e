// Python str operations on text the file system and message backends need, with CPython's exact behaviour:
// splitlines() and split() on Python's own line-boundary and whitespace sets, strip/rstrip with a character
// set, zfill, len() in code points, the UTF-8 byte length and str ordering (by code point, not UTF-16 unit).
// The receiver checks (AttributeError for a non-str) live in str-methods.ts.

// str.splitlines() boundaries: \r\n, then \n \r \v \f \x1c \x1d \x1e \x85 \u2028 \u2029.
const LINE_BREAK = /\r\n|[\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029]/;

/** str.splitlines() without keepends. */
export function pySplitlines(text: string): string[] {
  const lines = text.split(LINE_BREAK);
  if (lines[lines.length - 1] === "") lines.pop();
  return lines;
}

// Runs of str.isspace() characters: what str.split() with no separator splits on.
const WHITESPACE_RUN = /[\t\n\x0b\x0c\r\x1c-\x1f \x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+/;

/** str.split() with no separator: runs of whitespace split, no empty strings. */
export function pySplitWhitespace(text: string): string[] {
  return text.split(WHITESPACE_RUN).filter((word) => word !== "");
}

/** str.rstrip(chars). */
export function pyRstrip(text: string, chars: string): string {
  const strip = new Set(chars);
  const points = [...text];
  let end = points.length;
  while (end > 0 && strip.has(points[end - 1] as string)) end--;
  return points.slice(0, end).join("");
}

/** str.strip(chars). */
export function pyStrip(text: string, chars: string): string {
  const strip = new Set(chars);
  const points = [...text];
  let start = 0;
  let end = points.length;
  while (start < end && strip.has(points[start] as string)) start++;
  while (end > start && strip.has(points[end - 1] as string)) end--;
  return points.slice(start, end).join("");
}

/** str.zfill(width): zeros after a leading sign. */
export function pyZfill(text: string, width: number): string {
  const length = pyStrLen(text);
  if (length >= width) return text;
  const fill = "0".repeat(width - length);
  if (text.startsWith("+") || text.startsWith("-")) return text[0] + fill + text.slice(1);
  return fill + text;
}

/** len(str): code points, not UTF-16 units. */
export function pyStrLen(text: string): number {
  let count = 0;
  for (const _ of text) count++;
  return count;
}

/** len(text.encode("utf-8")) for well-formed text. */
export function utf8Length(text: string): number {
  return Buffer.byteLength(text, "utf8");
}

const isSurrogate = (unit: number): boolean => unit >= 0xd800 && unit <= 0xdfff;

/**
 * Python's str ordering: by code point. UTF-16 order agrees except where a surrogate (part of a code point
 * above U+FFFF) meets a BMP unit above it (U+E000..U+FFFF); the surrogate side is then the larger.
 */
export function compareStr(a: string, b: string): number {
  const length = Math.min(a.length, b.length);
  for (let i = 0; i < length; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x === y) continue;
    const xs = isSurrogate(x);
    if (xs === isSurrogate(y)) return x - y;
    return xs ? 1 : -1;
  }
  return a.length - b.length;
}
