// Python's float() and int() constructors on any PyValue, as CPython 3.11 does them: strings are parsed with
// Python's grammar (surrounding whitespace, digits of any script, single underscores between digits, "inf",
// "nan"), and every failure raises the ValueError/TypeError/OverflowError text a model would see.
import { PyException } from "./errors.js";
import { stringRepr } from "./format.js";
import { decimalValue, isPySpace } from "./unicode-digits.js";
import { isFloat, pyFloat, pyTypeName, type PyFloat, type PyValue } from "./value.js";

/** CPython first maps every decimal digit to ASCII and every space to " "; other non-ASCII becomes "?". */
function toAsciiNumberText(text: string): string {
  let out = "";
  for (const char of text) {
    const digit = decimalValue(char);
    if (digit !== undefined) out += String(digit);
    else if (isPySpace(char)) out += " ";
    else out += char.codePointAt(0)! > 127 ? "?" : char;
  }
  return out.trim();
}

/** Underscores are allowed only between two digits; returns the text without them, or undefined. */
function withoutUnderscores(text: string): string | undefined {
  if (!text.includes("_")) return text;
  if (/(^|[^0-9])_|_($|[^0-9])/.test(text)) return undefined;
  return text.replaceAll("_", "");
}

const FLOAT_TEXT = /^[+-]?(?:(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?|inf|infinity|nan)$/i;

/** float(text) for a str, or undefined when Python would raise ValueError. */
export function parsePyFloatText(text: string): number | undefined {
  const cleaned = withoutUnderscores(toAsciiNumberText(text));
  if (cleaned === undefined || !FLOAT_TEXT.test(cleaned)) return undefined;
  const negative = cleaned.startsWith("-");
  const body = cleaned.replace(/^[+-]/, "").toLowerCase();
  const magnitude = body === "nan" ? NaN : body.startsWith("inf") ? Infinity : Number(body);
  return negative ? -magnitude : magnitude;
}

/** float(value). */
export function pyFloatOf(value: PyValue): PyFloat {
  if (typeof value === "number") return pyFloat(value);
  if (typeof value === "boolean") return pyFloat(value ? 1 : 0);
  if (isFloat(value)) return value;
  if (typeof value === "string") {
    const parsed = parsePyFloatText(value);
    if (parsed === undefined)
      throw new PyException("ValueError", `could not convert string to float: ${stringRepr(value)}`);
    return pyFloat(parsed);
  }
  throw new PyException("TypeError", `float() argument must be a string or a real number, not '${pyTypeName(value)}'`);
}

const INT_TEXT = /^[+-]?\d+$/;

/** int(value) (base 10 for strings). */
export function pyIntOf(value: PyValue): number {
  if (typeof value === "number") return value;
  if (typeof value === "boolean") return value ? 1 : 0;
  if (isFloat(value)) {
    if (Number.isNaN(value.value)) throw new PyException("ValueError", "cannot convert float NaN to integer");
    if (!Number.isFinite(value.value))
      throw new PyException("OverflowError", "cannot convert float infinity to integer");
    return Math.trunc(value.value) + 0;
  }
  if (typeof value === "string") {
    const cleaned = withoutUnderscores(toAsciiNumberText(value));
    if (cleaned === undefined || !INT_TEXT.test(cleaned))
      throw new PyException("ValueError", `invalid literal for int() with base 10: ${stringRepr(value)}`);
    return Number(cleaned) + 0;
  }
  throw new PyException(
    "TypeError",
    `int() argument must be a string, a bytes-like object or a real number, not '${pyTypeName(value)}'`,
  );
}
