// Python's int(x) for the values a backend may convert: ints, bools, floats (truncated toward zero; NaN and
// infinities raise) and base-10 strings (surrounding whitespace, a sign and single underscores between digits
// allowed), with CPython's error messages. Non-ASCII decimal digits are not recognised (CPython accepts them).
import { pyRaise } from "./errors.js";
import { stringRepr } from "./format.js";
import { isFloat, pyTypeName, type PyValue } from "./value.js";

const INT_LITERAL = /^[+-]?\d+(?:_\d+)*$/;

/** int(value). */
export function pyInt(value: PyValue): number {
  if (typeof value === "number") return value;
  if (typeof value === "boolean") return value ? 1 : 0;
  if (isFloat(value)) {
    if (Number.isNaN(value.value)) return pyRaise("ValueError", "cannot convert float NaN to integer");
    if (!Number.isFinite(value.value)) return pyRaise("OverflowError", "cannot convert float infinity to integer");
    return Math.trunc(value.value) + 0;
  }
  if (typeof value === "string") {
    const text = value.trim();
    if (!INT_LITERAL.test(text)) return pyRaise("ValueError", `invalid literal for int() with base 10: ${stringRepr(value)}`);
    return Number(text.replace(/_/g, ""));
  }
  return pyRaise("TypeError", `int() argument must be a string, a bytes-like object or a real number, not '${pyTypeName(value)}'`);
}
