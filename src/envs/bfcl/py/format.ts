// Python's text forms of values, exactly: repr(), str() and json.dumps() with default arguments. Upstream BFCL
// turns a dict result into json.dumps text (falling back to str() when that raises), any other non-str value
// into str(), and an exception into "Error during execution: " + str(exception).
import { isFloat, numberOf, type PyKey, type PyValue } from "./value.js";

/** str(int): the exact digits (String() rounds to 17 significant digits above 2**53 and uses exponents from 1e21). */
export function intText(x: number): string {
  return Number.isSafeInteger(x) ? String(x) : BigInt(x).toString();
}

const FLOAT_TEXTS = new Map<number, string>();
const MAX_FLOAT_TEXTS = 100_000;

/** repr(float): shortest round-trip digits; fixed notation for 1e-4 <= |x| < 1e16, else scientific. */
export function floatRepr(x: number): string {
  const magnitude = Math.abs(x);
  if (magnitude >= 1e-4 && magnitude < 1e16) {
    // Fast path: in this range JS also prints plain decimals, with the same shortest round-trip digits.
    // Backends print the same prices and readings again and again: a lookup is cheaper than the digits.
    let text = FLOAT_TEXTS.get(x);
    if (text === undefined) {
      text = String(x);
      if (!text.includes(".")) text = `${text}.0`;
      if (FLOAT_TEXTS.size >= MAX_FLOAT_TEXTS) FLOAT_TEXTS.clear();
      FLOAT_TEXTS.set(x, text);
    }
    return text;
  }
  if (Number.isNaN(x)) return "nan";
  if (x === Infinity) return "inf";
  if (x === -Infinity) return "-inf";
  if (x === 0) return Object.is(x, -0) ? "-0.0" : "0.0";
  const [mantissa, exponentText] = x.toExponential().split("e") as [string, string];
  const exponent = Number(exponentText);
  const negative = mantissa.startsWith("-");
  const digits = mantissa.replace("-", "").replace(".", "");
  const sign = negative ? "-" : "";
  if (exponent >= -4 && exponent < 16) {
    // Python writes fixed notation for decimal exponents in [-4, 16), scientific otherwise.
    if (exponent < 0) return `${sign}0.${"0".repeat(-exponent - 1)}${digits}`;
    const whole = digits.slice(0, exponent + 1).padEnd(exponent + 1, "0");
    const fraction = digits.slice(exponent + 1);
    return `${sign}${whole}.${fraction === "" ? "0" : fraction}`;
  }
  const expSign = exponent < 0 ? "-" : "+";
  const expDigits = String(Math.abs(exponent)).padStart(2, "0");
  return `${sign}${digits[0]}${digits.length > 1 ? `.${digits.slice(1)}` : ""}e${expSign}${expDigits}`;
}

// Characters Python's str.isprintable() rejects: categories Cc, Cf, Cs, Co, Cn, Zl, Zp, Zs (except space).
const NON_PRINTABLE = /[\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Cn}\p{Zl}\p{Zp}]|(?! )\p{Zs}/u;

/** repr(str): single quotes unless the text has ' and no ", escapes as CPython does. */
export function stringRepr(text: string): string {
  const quote = text.includes("'") && !text.includes('"') ? '"' : "'";
  let out = quote;
  for (const char of text) {
    if (char === quote || char === "\\") out += `\\${char}`;
    else if (char === "\n") out += "\\n";
    else if (char === "\r") out += "\\r";
    else if (char === "\t") out += "\\t";
    else if (NON_PRINTABLE.test(char)) out += escapeCodePoint(char.codePointAt(0) as number);
    else out += char;
  }
  return out + quote;
}

function escapeCodePoint(code: number): string {
  if (code < 0x100) return `\\x${code.toString(16).padStart(2, "0")}`;
  if (code < 0x10000) return `\\u${code.toString(16).padStart(4, "0")}`;
  return `\\U${code.toString(16).padStart(8, "0")}`;
}

function keyRepr(key: PyKey): string {
  return pyRepr(key);
}

/** repr(value). */
export function pyRepr(value: PyValue): string {
  if (value === null) return "None";
  if (value === true) return "True";
  if (value === false) return "False";
  if (typeof value === "number") return Number.isInteger(value) ? intText(value) : floatRepr(value);
  if (typeof value === "string") return stringRepr(value);
  if (Array.isArray(value)) return `[${value.map(pyRepr).join(", ")}]`;
  if (value instanceof Map)
    return `{${[...value].map(([key, inner]) => `${keyRepr(key)}: ${pyRepr(inner)}`).join(", ")}}`;
  if (value instanceof Set) return value.size === 0 ? "set()" : `{${[...value].map(keyRepr).join(", ")}}`;
  if (value.kind === "float") return floatRepr(value.value);
  if (value.kind === "tuple")
    return value.items.length === 1
      ? `(${pyRepr(value.items[0] as PyValue)},)`
      : `(${value.items.map(pyRepr).join(", ")})`;
  return value.pyRepr();
}

/** str(value): strings print bare, everything else as repr. */
export function pyStr(value: PyValue): string {
  return typeof value === "string" ? value : pyRepr(value);
}

/** Raised by pyJsonDumps where Python's json.dumps raises TypeError. */
export class NotJsonSerializable extends Error {
  constructor(typeName: string) {
    super(`Object of type ${typeName} is not JSON serializable`);
    this.name = "TypeError";
  }
}

/** Printable ASCII without '"' and '\\': written as is. */
const PLAIN_JSON_TEXT = /^[\x20\x21\x23-\x5b\x5d-\x7e]*$/;

/** JSON string literal with ensure_ascii=True, as Python's json module writes it. */
export function jsonString(text: string): string {
  if (PLAIN_JSON_TEXT.test(text)) return `"${text}"`;
  let out = '"';
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    const char = text[i] as string;
    if (char === '"') out += '\\"';
    else if (char === "\\") out += "\\\\";
    else if (char === "\n") out += "\\n";
    else if (char === "\r") out += "\\r";
    else if (char === "\t") out += "\\t";
    else if (char === "\b") out += "\\b";
    else if (char === "\f") out += "\\f";
    else if (code < 0x20 || code > 0x7e) out += code === 0x7f ? char : `\\u${code.toString(16).padStart(4, "0")}`;
    else out += char;
  }
  return out + '"';
}

function jsonNumber(x: number, isFloatValue: boolean): string {
  if (Number.isNaN(x)) return "NaN";
  if (x === Infinity) return "Infinity";
  if (x === -Infinity) return "-Infinity";
  return isFloatValue ? floatRepr(x) : intText(x);
}

function jsonKey(key: PyKey): string {
  if (typeof key === "string") return jsonString(key);
  if (key === null) return '"null"';
  if (typeof key === "boolean") return key ? '"true"' : '"false"';
  return `"${Number.isInteger(key) ? intText(key) : floatRepr(key)}"`;
}

export interface JsonDumpsOptions {
  /** json.dumps(sort_keys=True): keys sorted by their JSON text. */
  readonly sortKeys?: boolean;
  /** json.dumps(indent=n): newline and n spaces per level, "," and ": " separators. */
  readonly indent?: number;
}

/** json.dumps(value) (by default: ", " and ": " separators, ensure_ascii, no sorting, no indent). */
export function pyJsonDumps(value: PyValue, options: JsonDumpsOptions = {}): string {
  return options.indent === undefined && options.sortKeys !== true ? dumpsCompact(value) : dumps(value, options, 0);
}

/** The default json.dumps: the hot path of every dict result. Containers are joined (flat strings: results are
 * compared with each other later, and flat strings compare without being copied first). */
function dumpsCompact(value: PyValue): string {
  switch (typeof value) {
    case "string":
      return jsonString(value);
    case "number":
      return jsonNumber(value, !Number.isInteger(value));
    case "boolean":
      return value ? "true" : "false";
    default:
      break;
  }
  if (value === null) return "null";
  if (Array.isArray(value)) return sequenceCompact(value);
  if (value instanceof Map) {
    const parts: string[] = [];
    for (const [key, inner] of value) parts.push(`${jsonKey(key)}: ${dumpsCompact(inner)}`);
    return `{${parts.join(", ")}}`;
  }
  if (value instanceof Set) throw new NotJsonSerializable("set");
  if (value.kind === "float") return jsonNumber(value.value, true);
  if (value.kind === "tuple") return sequenceCompact(value.items);
  throw new NotJsonSerializable(value.pyClass);
}

function sequenceCompact(items: readonly PyValue[]): string {
  const parts = new Array<string>(items.length);
  for (let index = 0; index < items.length; index++) parts[index] = dumpsCompact(items[index] as PyValue);
  return `[${parts.join(", ")}]`;
}

function dumps(value: PyValue, options: JsonDumpsOptions, level: number): string {
  if (value === null) return "null";
  if (value === true) return "true";
  if (value === false) return "false";
  if (typeof value === "number") return jsonNumber(value, !Number.isInteger(value));
  if (typeof value === "string") return jsonString(value);
  if (Array.isArray(value))
    return container(
      "[",
      "]",
      value.map((item) => dumps(item, options, level + 1)),
      options,
      level,
    );
  if (value instanceof Map) {
    const entries = [...value];
    if (options.sortKeys === true) entries.sort(([a], [b]) => comparePyKeys(a, b));
    return container(
      "{",
      "}",
      entries.map(([key, inner]) => `${jsonKey(key)}: ${dumps(inner, options, level + 1)}`),
      options,
      level,
    );
  }
  if (value instanceof Set) throw new NotJsonSerializable("set");
  if (isFloat(value)) return jsonNumber(numberOf(value), true);
  if (value.kind === "tuple")
    return container(
      "[",
      "]",
      value.items.map((item) => dumps(item, options, level + 1)),
      options,
      level,
    );
  throw new NotJsonSerializable(value.pyClass);
}

/** str() of a dict key: how state dumps and JSON exports name keys. */
export function pyKeyText(key: PyKey): string {
  if (typeof key === "string") return key;
  if (key === null) return "None";
  if (typeof key === "boolean") return key ? "True" : "False";
  return Number.isInteger(key) ? String(key) : floatRepr(key);
}

/** Order of keys of one type (sort_keys=True, sorted sets): numbers numerically, others by their str() text. */
export function comparePyKeys(a: PyKey, b: PyKey): number {
  if (typeof a === "number" && typeof b === "number") return a - b;
  const left = pyKeyText(a);
  const right = pyKeyText(b);
  return left < right ? -1 : left > right ? 1 : 0;
}

function container(
  open: string,
  close: string,
  parts: readonly string[],
  options: JsonDumpsOptions,
  level: number,
): string {
  if (parts.length === 0) return `${open}${close}`;
  if (options.indent === undefined) return `${open}${parts.join(", ")}${close}`;
  const inner = "\n" + " ".repeat(options.indent * (level + 1));
  return `${open}${inner}${parts.join(`,${inner}`)}\n${" ".repeat(options.indent * level)}${close}`;
}

/** How upstream turns a function's return value into the result string the model sees. */
export function resultString(value: PyValue): string {
  if (typeof value === "string") return value;
  if (value instanceof Map) {
    try {
      return pyJsonDumps(value);
    } catch (error) {
      if (error instanceof NotJsonSerializable) return pyStr(value);
      throw error;
    }
  }
  return pyStr(value);
}
