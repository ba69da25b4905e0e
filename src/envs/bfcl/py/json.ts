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

export function parsePyJson(text: string): PyValue {
  let pos = 0;
  const fail = (message: string): never => {
    throw new PyJsonError(message, pos);
  };
  const skipSpace = (): void => {
    while (pos < text.length && " \t\n\r".includes(text[pos] as string)) pos++;
  };
  const parseString = (): string => {
    pos++; // opening quote
    let out = "";
    for (;;) {
      const end = text.indexOf('"', pos);
      const slash = text.indexOf("\\", pos);
      if (end < 0) fail("unterminated string");
      if (slash < 0 || slash > end) {
        out += text.slice(pos, end);
        pos = end + 1;
        return out;
      }
      out += text.slice(pos, slash);
      pos = slash + 1;
      const escape = text[pos++];
      const simple: Record<string, string> = { '"': '"', "\\": "\\", "/": "/", b: "\b", f: "\f", n: "\n", r: "\r", t: "\t" };
      if (escape === "u") {
        const hex = text.slice(pos, pos + 4);
        if (!/^[0-9a-fA-F]{4}$/.test(hex)) fail("bad \\u escape");
        out += String.fromCharCode(parseInt(hex, 16));
        pos += 4;
      } else if (escape !== undefined && escape in simple) out += simple[escape];
      else fail("bad escape");
    }
  };
  const parseNumber = (): PyValue => {
    const match = /^-?(?:0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/.exec(text.slice(pos, pos + 400));
    if (match === null) return fail("bad number");
    pos += match[0].length;
    const value = Number(match[0]);
    return match[1] !== undefined || match[2] !== undefined ? pyFloat(value) : value;
  };
  const parseValue = (): PyValue => {
    skipSpace();
    const char = text[pos];
    if (char === "{") {
      pos++;
      const dict: PyDict = new Map();
      skipSpace();
      if (text[pos] === "}") {
        pos++;
        return dict;
      }
      for (;;) {
        skipSpace();
        if (text[pos] !== '"') fail("expected a string key");
        const key = parseString();
        skipSpace();
        if (text[pos++] !== ":") fail("expected ':'");
        dict.set(key, parseValue());
        skipSpace();
        const next = text[pos++];
        if (next === "}") return dict;
        if (next !== ",") fail("expected ',' or '}'");
      }
    }
    if (char === "[") {
      pos++;
      const list: PyValue[] = [];
      skipSpace();
      if (text[pos] === "]") {
        pos++;
        return list;
      }
      for (;;) {
        list.push(parseValue());
        skipSpace();
        const next = text[pos++];
        if (next === "]") return list;
        if (next !== ",") fail("expected ',' or ']'");
      }
    }
    if (char === '"') return parseString();
    if (text.startsWith("true", pos)) return (pos += 4), true;
    if (text.startsWith("false", pos)) return (pos += 5), false;
    if (text.startsWith("null", pos)) return (pos += 4), null;
    if (text.startsWith("NaN", pos)) return (pos += 3), pyFloat(NaN);
    if (text.startsWith("Infinity", pos)) return (pos += 8), pyFloat(Infinity);
    if (text.startsWith("-Infinity", pos)) return (pos += 9), pyFloat(-Infinity);
    return parseNumber();
  };
  const value = parseValue();
  skipSpace();
  if (pos !== text.length) fail("extra data");
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
