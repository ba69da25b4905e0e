// Python's binary operators and numeric builtins on any PyValue, with CPython's result types and errors:
// bool acts as int; int op int stays int (true division gives float); str/list/tuple concatenate with +;
// ** follows float_pow (0.0 ** -1 raises ZeroDivisionError, overflow raises OverflowError, a negative base
// with a fractional exponent gives a complex); sum() adds left to right from 0 as CPython 3.11 does.
// Limitation: ints live in doubles, so int results beyond 2**53 are rounded (Python's are exact).
import { pyAdd, pyMul, pySub, pyTrueDiv, type PyNumber } from "./arith.js";
import { powPositive } from "./bigfloat-elementary.js";
import { complexPower } from "./complex.js";
import { pyIterate } from "./containers.js";
import { pyRaise } from "./errors.js";
import { isFloat, isTuple, pyFloat, pyTuple, pyTypeName, type PyValue } from "./value.js";

/** The int/float of a numeric PyValue (bool as int), or undefined for anything else. */
export function asNumber(value: PyValue): PyNumber | undefined {
  if (typeof value === "number") return value;
  if (typeof value === "boolean") return value ? 1 : 0;
  if (isFloat(value)) return value;
  return undefined;
}

function unsupported(op: string, a: PyValue, b: PyValue): never {
  return pyRaise("TypeError", `unsupported operand type(s) for ${op}: '${pyTypeName(a)}' and '${pyTypeName(b)}'`);
}

/** a + b. */
export function pyPlus(a: PyValue, b: PyValue): PyValue {
  const x = asNumber(a);
  const y = asNumber(b);
  if (x !== undefined && y !== undefined) return pyAdd(x, y);
  if (typeof a === "string") {
    if (typeof b === "string") return a + b;
    return pyRaise("TypeError", `can only concatenate str (not "${pyTypeName(b)}") to str`);
  }
  if (Array.isArray(a)) {
    if (Array.isArray(b)) return [...a, ...b];
    return pyRaise("TypeError", `can only concatenate list (not "${pyTypeName(b)}") to list`);
  }
  if (isTuple(a)) {
    if (isTuple(b)) return pyTuple([...a.items, ...b.items]);
    return pyRaise("TypeError", `can only concatenate tuple (not "${pyTypeName(b)}") to tuple`);
  }
  return unsupported("+", a, b);
}

/** a - b (numbers only). */
export function pyMinus(a: PyValue, b: PyValue): PyValue {
  const x = asNumber(a);
  const y = asNumber(b);
  if (x !== undefined && y !== undefined) return pySub(x, y);
  return unsupported("-", a, b);
}

/** a * b for numbers (sequence repetition is not needed by any backend and raises here). */
export function pyTimes(a: PyValue, b: PyValue): PyValue {
  const x = asNumber(a);
  const y = asNumber(b);
  if (x !== undefined && y !== undefined) return pyMul(x, y);
  return unsupported("*", a, b);
}

/** a / b. */
export function pyDivide(a: PyValue, b: PyValue): PyValue {
  const x = asNumber(a);
  const y = asNumber(b);
  if (x !== undefined && y !== undefined) return pyTrueDiv(x, y);
  return unsupported("/", a, b);
}

const isOddInteger = (x: number): boolean => Number.isInteger(x) && Math.abs(x % 2) === 1;

/** CPython's float_pow on two doubles. */
function floatPower(v: number, w: number): PyValue {
  if (w === 0) return pyFloat(1);
  if (Number.isNaN(v)) return pyFloat(v);
  if (Number.isNaN(w)) return pyFloat(v === 1 ? 1 : w);
  if (!Number.isFinite(w)) {
    const magnitude = Math.abs(v);
    if (magnitude === 1) return pyFloat(1);
    return pyFloat(w > 0 === magnitude > 1 ? Infinity : 0);
  }
  if (!Number.isFinite(v)) {
    if (w > 0) return pyFloat(isOddInteger(w) ? v : Math.abs(v));
    return pyFloat(isOddInteger(w) ? (v < 0 ? -0 : 0) : 0);
  }
  if (v === 0) {
    if (w < 0) pyRaise("ZeroDivisionError", "0.0 cannot be raised to a negative power");
    return pyFloat(isOddInteger(w) ? v : 0);
  }
  let negate = false;
  let base = v;
  if (v < 0) {
    if (!Number.isInteger(w)) return complexPower(v, w);
    base = -v;
    negate = isOddInteger(w);
  }
  if (base === 1) return pyFloat(negate ? -1 : 1);
  const result = powPositive(base, w);
  if (!Number.isFinite(result)) pyRaise("OverflowError", "(34, 'Numerical result out of range')");
  return pyFloat(negate ? -result : result);
}

/** int ** int for a non-negative exponent: exact while it fits a double's integer range, rounded beyond 2**53. */
function intPower(base: number, exponent: number): number {
  if (base === 0 || base === 1) return exponent === 0 ? 1 : base;
  if (base === -1) return exponent % 2 === 0 ? 1 : -1;
  const digits = exponent * Math.log10(Math.abs(base));
  // CPython computes the exact int, then refuses to print more than 4300 digits (json.dumps and str() both fail).
  if (digits > 4300) pyRaise("ValueError", "Exceeds the limit (4300 digits) for integer string conversion; use sys.set_int_max_str_digits() to increase the limit");
  if (digits > 308) pyRaise("OverflowError", "int result beyond 1e308: budgetrl keeps ints in doubles");
  return Number(BigInt(base) ** BigInt(exponent));
}

/** a ** b. */
export function pyPower(a: PyValue, b: PyValue): PyValue {
  const x = asNumber(a);
  const y = asNumber(b);
  if (x === undefined || y === undefined) return unsupported("** or pow()", a, b);
  if (typeof x === "number" && typeof y === "number" && y >= 0) return intPower(x, y);
  return floatPower(typeof x === "number" ? x : x.value, typeof y === "number" ? y : y.value);
}

/** abs(value). */
export function pyAbsolute(value: PyValue): PyValue {
  const x = asNumber(value);
  if (x === undefined) return pyRaise("TypeError", `bad operand type for abs(): '${pyTypeName(value)}'`);
  return typeof x === "number" ? Math.abs(x) : pyFloat(Math.abs(x.value));
}

/** sum(iterable): 0 + items, left to right. */
export function pySum(values: PyValue): PyValue {
  let total: PyValue = 0;
  for (const item of pyIterate(values)) total = pyPlus(total, item);
  return total;
}
