// A parser for Python call syntax as it appears in BFCL ground truth and in prompting-mode model output:
//   [f(a=1, b='x'), g([1, 2], {'k': None})]      a list of calls
//   f(a=1)                                        a single call
// Arguments: keyword and positional; values: strings (either quote, triple quotes, escapes, r/u prefixes,
// adjacent literals concatenated), ints (decimal, hex, octal, binary, underscores), floats, True/False/None,
// lists, tuples, dicts, sets, unary minus/plus. Nothing is evaluated: text becomes PyValues or a verdict with a
// clear message and position. Depth and size are bounded so hostile input cannot exhaust the stack.
import { isFloat, pyFloat, pyTuple, toKey, type PyDict, type PyValue } from "../py/value.js";
import type { Call, ParseVerdict } from "./call.js";

const MAX_DEPTH = 100;
const MAX_LENGTH = 1_000_000;

class SyntaxFailure extends Error {
  constructor(
    message: string,
    readonly position: number,
  ) {
    super(message);
  }
}

interface Cursor {
  readonly text: string;
  pos: number;
  depth: number;
}

function fail(cursor: Cursor, message: string): never {
  throw new SyntaxFailure(message, cursor.pos);
}

function skipSpace(cursor: Cursor): void {
  const { text } = cursor;
  while (cursor.pos < text.length) {
    const char = text[cursor.pos];
    if (char === " " || char === "\t" || char === "\n" || char === "\r") cursor.pos++;
    else if (char === "\\" && text[cursor.pos + 1] === "\n") cursor.pos += 2;
    else break;
  }
}

function peek(cursor: Cursor): string | undefined {
  skipSpace(cursor);
  return cursor.text[cursor.pos];
}

function expect(cursor: Cursor, char: string): void {
  if (peek(cursor) !== char) fail(cursor, `expected '${char}' but found ${describeAt(cursor)}`);
  cursor.pos++;
}

function describeAt(cursor: Cursor): string {
  const char = cursor.text[cursor.pos];
  return char === undefined ? "end of input" : `'${char}'`;
}

const IDENTIFIER = /[A-Za-z_][A-Za-z0-9_]*/y;

function readIdentifier(cursor: Cursor): string | null {
  skipSpace(cursor);
  IDENTIFIER.lastIndex = cursor.pos;
  const match = IDENTIFIER.exec(cursor.text);
  if (match === null) return null;
  cursor.pos += match[0].length;
  return match[0];
}

function readDottedName(cursor: Cursor): string {
  const first = readIdentifier(cursor);
  if (first === null) fail(cursor, `expected a function name but found ${describeAt(cursor)}`);
  let name = first;
  while (cursor.text[cursor.pos] === ".") {
    cursor.pos++;
    const part = readIdentifier(cursor);
    if (part === null) fail(cursor, "expected a name after '.'");
    name += `.${part}`;
  }
  return name;
}

const SIMPLE_ESCAPES: Record<string, string> = {
  "\\": "\\",
  "'": "'",
  '"': '"',
  a: "\x07",
  b: "\b",
  f: "\f",
  n: "\n",
  r: "\r",
  t: "\t",
  v: "\v",
  "\n": "",
};

function readEscape(cursor: Cursor): string {
  const { text } = cursor;
  const char = text[cursor.pos];
  if (char === undefined) fail(cursor, "unterminated string");
  if (char in SIMPLE_ESCAPES) {
    cursor.pos++;
    return SIMPLE_ESCAPES[char] as string;
  }
  const hexLength = char === "x" ? 2 : char === "u" ? 4 : char === "U" ? 8 : 0;
  if (hexLength > 0) {
    const hex = text.slice(cursor.pos + 1, cursor.pos + 1 + hexLength);
    if (hex.length !== hexLength || !/^[0-9a-fA-F]+$/.test(hex)) fail(cursor, `truncated \\${char} escape`);
    const code = parseInt(hex, 16);
    if (code > 0x10ffff) fail(cursor, "escape outside the Unicode range");
    cursor.pos += 1 + hexLength;
    return String.fromCodePoint(code);
  }
  const octal = /^[0-7]{1,3}/.exec(text.slice(cursor.pos, cursor.pos + 3));
  if (octal !== null) {
    cursor.pos += octal[0].length;
    return String.fromCodePoint(parseInt(octal[0], 8));
  }
  // Unknown escapes keep the backslash, as Python does.
  cursor.pos++;
  return `\\${char}`;
}

function readStringLiteral(cursor: Cursor, raw: boolean): string {
  const { text } = cursor;
  const quote = text[cursor.pos] as string;
  const triple = text.startsWith(quote.repeat(3), cursor.pos);
  const delimiter = triple ? quote.repeat(3) : quote;
  cursor.pos += delimiter.length;
  let out = "";
  for (;;) {
    if (cursor.pos >= text.length) fail(cursor, "unterminated string");
    if (text.startsWith(delimiter, cursor.pos)) {
      cursor.pos += delimiter.length;
      return out;
    }
    const char = text[cursor.pos] as string;
    if (char === "\n" && !triple) fail(cursor, "unterminated string (newline inside a one-line string)");
    if (char === "\\") {
      cursor.pos++;
      if (raw) {
        const next = text[cursor.pos];
        if (next === undefined) fail(cursor, "unterminated string");
        out += `\\${next}`;
        cursor.pos++;
      } else out += readEscape(cursor);
      continue;
    }
    out += char;
    cursor.pos++;
  }
}

const STRING_PREFIX = /(?:[rR]|[uU])?(?=['"])/y;

/** One or more adjacent string literals (Python concatenates them). */
function readStrings(cursor: Cursor): string | null {
  let out: string | null = null;
  for (;;) {
    skipSpace(cursor);
    STRING_PREFIX.lastIndex = cursor.pos;
    const match = STRING_PREFIX.exec(cursor.text);
    if (match === null) return out;
    const raw = /[rR]/.test(match[0]);
    cursor.pos += match[0].length;
    out = (out ?? "") + readStringLiteral(cursor, raw);
  }
}

const NUMBER =
  /(?:0[xX](?:_?[0-9a-fA-F])+|0[oO](?:_?[0-7])+|0[bB](?:_?[01])+|(?:\d(?:_?\d)*)?\.?(?:\d(?:_?\d)*)?(?:[eE][+-]?\d(?:_?\d)*)?)/y;

function readNumber(cursor: Cursor): PyValue {
  NUMBER.lastIndex = cursor.pos;
  const match = NUMBER.exec(cursor.text);
  const token = match?.[0] ?? "";
  if (token === "" || token === "." || /^\.?[eE]/.test(token)) fail(cursor, `unexpected ${describeAt(cursor)}`);
  cursor.pos += token.length;
  const clean = token.replace(/_/g, "");
  if (/^0[xXoObB]/.test(clean)) return Number(clean);
  if (/[.eE]/.test(clean)) return pyFloat(Number(clean.endsWith(".") ? `${clean}0` : clean));
  if (/^0\d/.test(clean) && /[1-9]/.test(clean))
    fail(cursor, "leading zeros in decimal integer literals are not permitted");
  const value = Number(clean);
  if (!Number.isSafeInteger(value)) fail(cursor, `integer ${clean} is too large`);
  return value;
}

function negate(cursor: Cursor, value: PyValue): PyValue {
  if (typeof value === "number") return -value;
  if (typeof value === "boolean") return value ? -1 : 0;
  if (isFloat(value)) return pyFloat(-value.value);
  return fail(cursor, "unary minus needs a number");
}

function readSequence(cursor: Cursor, close: string): { items: PyValue[]; trailingComma: boolean } {
  const items: PyValue[] = [];
  let trailingComma = false;
  while (peek(cursor) !== close) {
    items.push(readValue(cursor));
    trailingComma = false;
    if (peek(cursor) === ",") {
      cursor.pos++;
      trailingComma = true;
    } else if (peek(cursor) !== close) fail(cursor, `expected ',' or '${close}' but found ${describeAt(cursor)}`);
  }
  cursor.pos++;
  return { items, trailingComma };
}

function readBraces(cursor: Cursor): PyValue {
  cursor.pos++;
  if (peek(cursor) === "}") {
    cursor.pos++;
    return new Map();
  }
  const first = readValue(cursor);
  if (peek(cursor) === ":") {
    const dict: PyDict = new Map();
    cursor.pos++;
    dict.set(keyOf(cursor, first), readValue(cursor));
    while (peek(cursor) === ",") {
      cursor.pos++;
      if (peek(cursor) === "}") break;
      const key = keyOf(cursor, readValue(cursor));
      expect(cursor, ":");
      dict.set(key, readValue(cursor));
    }
    expect(cursor, "}");
    return dict;
  }
  const set = new Set([keyOf(cursor, first)]);
  while (peek(cursor) === ",") {
    cursor.pos++;
    if (peek(cursor) === "}") break;
    set.add(keyOf(cursor, readValue(cursor)));
  }
  expect(cursor, "}");
  return set;
}

function keyOf(cursor: Cursor, value: PyValue): ReturnType<typeof toKey> {
  try {
    return toKey(value);
  } catch (error) {
    return fail(cursor, (error as Error).message);
  }
}

function readValue(cursor: Cursor): PyValue {
  if (++cursor.depth > MAX_DEPTH) fail(cursor, `nesting deeper than ${MAX_DEPTH} levels`);
  try {
    const char = peek(cursor);
    if (char === undefined) fail(cursor, "expected a value but found end of input");
    if (char === "-" || char === "+") {
      cursor.pos++;
      const inner = readValue(cursor);
      return char === "-" ? negate(cursor, inner) : negate(cursor, negate(cursor, inner));
    }
    if (char === "[") {
      cursor.pos++;
      return readSequence(cursor, "]").items;
    }
    if (char === "(") {
      cursor.pos++;
      const { items, trailingComma } = readSequence(cursor, ")");
      // (x) is just x; (x,) and (x, y) and () are tuples.
      return items.length === 1 && !trailingComma ? (items[0] as PyValue) : pyTuple(items);
    }
    if (char === "{") return readBraces(cursor);
    const text = readStrings(cursor);
    if (text !== null) return text;
    if (/[0-9.]/.test(char)) return readNumber(cursor);
    const start = cursor.pos;
    const word = readIdentifier(cursor);
    if (word === "True") return true;
    if (word === "False") return false;
    if (word === "None") return null;
    cursor.pos = start;
    return fail(
      cursor,
      word === null
        ? `unexpected ${describeAt(cursor)}`
        : `'${word}' is not a literal value (only literals can be arguments)`,
    );
  } finally {
    cursor.depth--;
  }
}

function readCall(cursor: Cursor): Call {
  const name = readDottedName(cursor);
  expect(cursor, "(");
  const args: PyValue[] = [];
  const kwargs: [string, PyValue][] = [];
  while (peek(cursor) !== ")") {
    const start = cursor.pos;
    const word = readIdentifier(cursor);
    if (word !== null && peek(cursor) === "=" && cursor.text[cursor.pos + 1] !== "=") {
      cursor.pos++;
      if (kwargs.some(([key]) => key === word)) fail(cursor, `keyword argument repeated: ${word}`);
      kwargs.push([word, readValue(cursor)]);
    } else {
      cursor.pos = start;
      if (kwargs.length > 0) fail(cursor, "positional argument follows keyword argument");
      args.push(readValue(cursor));
    }
    if (peek(cursor) === ",") cursor.pos++;
    else if (peek(cursor) !== ")") fail(cursor, `expected ',' or ')' but found ${describeAt(cursor)}`);
  }
  cursor.pos++;
  return { name, args, kwargs };
}

/** Parse one call (`f(a=1)`) or a list/tuple of calls (`[f(a=1), g()]`). */
export function parseCalls(text: string): ParseVerdict {
  if (text.length > MAX_LENGTH)
    return {
      valid: false,
      errorType: "call_parse:syntax",
      message: `input longer than ${MAX_LENGTH} characters`,
      position: 0,
    };
  const cursor: Cursor = { text, pos: 0, depth: 0 };
  try {
    const calls: Call[] = [];
    const open = peek(cursor);
    if (open === "[" || open === "(") {
      const close = open === "[" ? "]" : ")";
      cursor.pos++;
      while (peek(cursor) !== close) {
        if (peek(cursor) === undefined) fail(cursor, `expected '${close}' but found end of input`);
        calls.push(readCall(cursor));
        if (peek(cursor) === ",") cursor.pos++;
        else if (peek(cursor) !== close)
          fail(cursor, `expected ',' or '${close}' between calls but found ${describeAt(cursor)}`);
      }
      cursor.pos++;
    } else calls.push(readCall(cursor));
    if (peek(cursor) !== undefined) fail(cursor, `unexpected text after the calls: ${describeAt(cursor)}`);
    return { valid: true, calls };
  } catch (error) {
    if (error instanceof SyntaxFailure)
      return { valid: false, errorType: "call_parse:syntax", message: error.message, position: error.position };
    if (error instanceof RangeError)
      return { valid: false, errorType: "call_parse:syntax", message: "input too deeply nested", position: cursor.pos };
    throw error;
  }
}

/** Parse exactly one call; a verdict names what went wrong. */
export function parseCall(
  text: string,
): { readonly valid: true; readonly call: Call } | Extract<ParseVerdict, { valid: false }> {
  const verdict = parseCalls(text);
  if (!verdict.valid) return verdict;
  if (verdict.calls.length !== 1 || text.trim().startsWith("["))
    return {
      valid: false,
      errorType: "call_parse:syntax",
      message: `expected exactly one call, found ${verdict.calls.length}`,
      position: 0,
    };
  return { valid: true, call: verdict.calls[0] as Call };
}
