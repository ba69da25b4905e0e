// json.loads as Python does it: numbers with a fraction or exponent become floats, others ints; objects
// become insertion-ordered dicts. JSON.parse cannot keep 10000.0 apart from 10000, so we parse ourselves.
import { pyFloat, type PyDict, type PyValue } from "./value.js";

export class PyJsonError extends Error {
  /** Offset in the text where parsing failed. */
  readonly position: number;
  constructor(message: string, position: number) {
    super(`${message} at position ${position}`);
    this.name = "PyJsonError";
    this.position = position;
  }
}

/** Where the parser is in the text. */
interface Cursor {
  readonly text: string;
  pos: number;
}

const SIMPLE_ESCAPES: Readonly<Record<string, string>> = {
  '"': '"',
  "\\": "\\",
  "/": "/",
  b: "\b",
  f: "\f",
  n: "\n",
  r: "\r",
  t: "\t",
};

function fail(cursor: Cursor, message: string): never {
  throw new PyJsonError(message, cursor.pos);
}

function skipSpace(cursor: Cursor): void {
  const { text } = cursor;
  while (cursor.pos < text.length && " \t\n\r".includes(text[cursor.pos] as string)) cursor.pos++;
}

/** A string, the cursor on its opening quote. */
function parseString(cursor: Cursor): string {
  const { text } = cursor;
  cursor.pos++; // opening quote
  let out = "";
  for (;;) {
    const end = text.indexOf('"', cursor.pos);
    const slash = text.indexOf("\\", cursor.pos);
    if (end < 0) fail(cursor, "unterminated string");
    if (slash < 0 || slash > end) {
      out += text.slice(cursor.pos, end);
      cursor.pos = end + 1;
      return out;
    }
    out += text.slice(cursor.pos, slash);
    cursor.pos = slash + 1;
    const escape = text[cursor.pos++];
    if (escape === "u") {
      const hex = text.slice(cursor.pos, cursor.pos + 4);
      if (!/^[0-9a-fA-F]{4}$/.test(hex)) fail(cursor, "bad \\u escape");
      out += String.fromCharCode(parseInt(hex, 16));
      cursor.pos += 4;
    } else if (escape !== undefined && escape in SIMPLE_ESCAPES) out += SIMPLE_ESCAPES[escape];
    else fail(cursor, "bad escape");
  }
}

/** An int, or a float when it has a fraction or an exponent (as Python's json.loads). */
function parseNumber(cursor: Cursor): PyValue {
  const match = /^-?(?:0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/.exec(cursor.text.slice(cursor.pos, cursor.pos + 400));
  if (match === null) return fail(cursor, "bad number");
  cursor.pos += match[0].length;
  const value = Number(match[0]);
  return match[1] !== undefined || match[2] !== undefined ? pyFloat(value) : value;
}

/** An object, the cursor on its "{": a dict in key order. */
function parseObject(cursor: Cursor): PyDict {
  const { text } = cursor;
  cursor.pos++;
  const dict: PyDict = new Map();
  skipSpace(cursor);
  if (text[cursor.pos] === "}") {
    cursor.pos++;
    return dict;
  }
  for (;;) {
    skipSpace(cursor);
    if (text[cursor.pos] !== '"') fail(cursor, "expected a string key");
    const key = parseString(cursor);
    skipSpace(cursor);
    if (text[cursor.pos++] !== ":") fail(cursor, "expected ':'");
    dict.set(key, parseValue(cursor));
    skipSpace(cursor);
    const next = text[cursor.pos++];
    if (next === "}") return dict;
    if (next !== ",") fail(cursor, "expected ',' or '}'");
  }
}

/** An array, the cursor on its "[". */
function parseArray(cursor: Cursor): PyValue[] {
  const { text } = cursor;
  cursor.pos++;
  const list: PyValue[] = [];
  skipSpace(cursor);
  if (text[cursor.pos] === "]") {
    cursor.pos++;
    return list;
  }
  for (;;) {
    list.push(parseValue(cursor));
    skipSpace(cursor);
    const next = text[cursor.pos++];
    if (next === "]") return list;
    if (next !== ",") fail(cursor, "expected ',' or ']'");
  }
}

/** The literal keywords: true, false, null and Python's NaN, Infinity, -Infinity (a fresh value per use). */
const KEYWORDS: readonly (readonly [string, () => PyValue])[] = [
  ["true", () => true],
  ["false", () => false],
  ["null", () => null],
  ["NaN", () => pyFloat(NaN)],
  ["Infinity", () => pyFloat(Infinity)],
  ["-Infinity", () => pyFloat(-Infinity)],
];

function parseValue(cursor: Cursor): PyValue {
  skipSpace(cursor);
  const char = cursor.text[cursor.pos];
  if (char === "{") return parseObject(cursor);
  if (char === "[") return parseArray(cursor);
  if (char === '"') return parseString(cursor);
  for (const [word, make] of KEYWORDS) {
    if (cursor.text.startsWith(word, cursor.pos)) {
      cursor.pos += word.length;
      return make();
    }
  }
  return parseNumber(cursor);
}

export function parsePyJson(text: string): PyValue {
  const cursor: Cursor = { text, pos: 0 };
  const value = parseValue(cursor);
  skipSpace(cursor);
  if (cursor.pos !== text.length) fail(cursor, "extra data");
  return value;
}

/** Parse a JSON Lines file (one value per non-empty line), naming the line on error. */
export function parsePyJsonLines(text: string, source = "input"): PyValue[] {
  const values: PyValue[] = [];
  text.split("\n").forEach((line, index) => {
    if (line.trim() === "") return;
    try {
      values.push(parsePyJson(line));
    } catch (error) {
      throw new PyJsonError(`${source}, line ${index + 1}: ${(error as Error).message}`, 0);
    }
  });
  return values;
}
