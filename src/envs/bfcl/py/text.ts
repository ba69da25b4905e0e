// Python str operations on text the file system and message backends need, with CPython's exact behaviour:
// splitlines() and split() on Python's own line-boundary and whitespace sets, strip/rstrip with a character
// set, zfill, len() in code points, the UTF-8 byte length and str ordering (by code point, not UTF-16 unit).
// The receiver checks (AttributeError for a non-str) live in str-methods.ts.

// str.splitlines() boundaries: \n \r (\r\n) \v \f \x1c \x1d \x1e \x85 \u2028 \u2029.
const LINE_BREAKS = new Set(["\n", "\r", "\x0b", "\x0c", "\x1c", "\x1d", "\x1e", "\x85", "\u2028", "\u2029"]);

/** str.splitlines() without keepends. */
export function pySplitlines(text: string): string[] {
  const lines: string[] = [];
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const char = text[i] as string;
    if (!LINE_BREAKS.has(char)) continue;
    lines.push(text.slice(start, i));
    if (char === "\r" && text[i + 1] === "\n") i++;
    start = i + 1;
  }
  if (start < text.length) lines.push(text.slice(start));
  return lines;
}

// str.isspace() characters (all BMP): what str.split() with no separator splits on.
const WHITESPACE = new Set([
  "\t", "\n", "\x0b", "\x0c", "\r", "\x1c", "\x1d", "\x1e", "\x1f", " ", "\x85", "\xa0", "\u1680",
  "\u2000", "\u2001", "\u2002", "\u2003", "\u2004", "\u2005", "\u2006", "\u2007", "\u2008", "\u2009", "\u200a",
  "\u2028", "\u2029", "\u202f", "\u205f", "\u3000",
]);

/** str.split() with no separator: runs of whitespace split, no empty strings. */
export function pySplitWhitespace(text: string): string[] {
  const words: string[] = [];
  let current = "";
  for (const char of text) {
    if (WHITESPACE.has(char)) {
      if (current !== "") words.push(current);
      current = "";
    } else current += char;
  }
  if (current !== "") words.push(current);
  return words;
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

/** Python's str ordering: by code point. */
export function compareStr(a: string, b: string): number {
  const left = [...a];
  const right = [...b];
  const length = Math.min(left.length, right.length);
  for (let i = 0; i < length; i++) {
    const difference = ((left[i] as string).codePointAt(0) ?? 0) - ((right[i] as string).codePointAt(0) ?? 0);
    if (difference !== 0) return difference;
  }
  return left.length - right.length;
}
