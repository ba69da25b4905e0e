// Python's binary operators and comparisons on any PyValue, with CPython 3.11's result types and TypeErrors:
// bool counts as int, int op int stays int (except /), anything with a float is a float, str/list/tuple
// concatenate and repeat, and everything else raises the exact message a model would see, e.g.
// "unsupported operand type(s) for -=: 'float' and 'str'" or "'<' not supported between instances of 'str' and 'int'".
import { pyAdd, pyMul, pySub, pyTrueDiv, type PyNumber } from "./arith.js";
import { PyException } from "./errors.js";
import { isFloat, isTuple, pyEquals, pyFloat, pyTuple, pyTypeName, type PyValue } from "./value.js";

/** Longest str/list/tuple a repetition may build. */
const MAX_REPEAT_LENGTH = 10_000_000;

export type ArithmeticOperator = "+" | "-" | "*" | "/" | "%";
export type ComparisonOperator = "<" | "<=" | ">" | ">=";

/** int, float or bool as a PyNumber (bool becomes an int); undefined for anything else. */
export function asNumber(value: PyValue): PyNumber | undefined {
  if (typeof value === "number" || isFloat(value)) return value;
  if (typeof value === "boolean") return value ? 1 : 0;
  return undefined;
}

function unsupported(operator: string, a: PyValue, b: PyValue): PyException {
  return new PyException(
    "TypeError",
    `unsupported operand type(s) for ${operator}: '${pyTypeName(a)}' and '${pyTypeName(b)}'`,
  );
}

function isSequence(value: PyValue): value is string | PyValue[] | { kind: "tuple"; items: readonly PyValue[] } {
  return typeof value === "string" || Array.isArray(value) || isTuple(value);
}

function repeat(
  sequence: string | readonly PyValue[] | { kind: "tuple"; items: readonly PyValue[] },
  times: PyValue,
): PyValue {
  if (typeof times !== "number" && typeof times !== "boolean") {
    throw new PyException("TypeError", `can't multiply sequence by non-int of type '${pyTypeName(times)}'`);
  }
  const count = Math.max(0, Number(times));
  const items =
    typeof sequence === "string"
      ? sequence
      : Array.isArray(sequence)
        ? sequence
        : (sequence as { items: readonly PyValue[] }).items;
  // CPython would try to allocate this and fail; we refuse early rather than exhaust memory.
  if (items.length * count > MAX_REPEAT_LENGTH) throw new PyException("MemoryError", "");
  if (typeof items === "string") return items.repeat(count);
  const out: PyValue[] = [];
  for (let i = 0; i < count; i++) out.push(...items);
  return Array.isArray(sequence) ? out : pyTuple(out);
}

function concatenate(a: string | PyValue[] | { kind: "tuple"; items: readonly PyValue[] }, b: PyValue): PyValue {
  if (typeof a === "string") {
    if (typeof b !== "string")
      throw new PyException("TypeError", `can only concatenate str (not "${pyTypeName(b)}") to str`);
    return a + b;
  }
  if (Array.isArray(a)) {
    if (!Array.isArray(b))
      throw new PyException("TypeError", `can only concatenate list (not "${pyTypeName(b)}") to list`);
    return [...a, ...b];
  }
  if (!isTuple(b)) throw new PyException("TypeError", `can only concatenate tuple (not "${pyTypeName(b)}") to tuple`);
  return pyTuple([...a.items, ...b.items]);
}

/** Python's float % float: the result takes the sign of the divisor. */
function floatModulo(x: number, y: number): number {
  const mod = x % y;
  if (mod === 0) return y < 0 ? -0 : 0;
  return y < 0 !== mod < 0 ? mod + y : mod;
}

function numericModulo(a: PyNumber, b: PyNumber): PyNumber {
  const x = typeof a === "number" ? a : a.value;
  const y = typeof b === "number" ? b : b.value;
  const asFloat = isFloat(a) || isFloat(b);
  if (y === 0) throw new PyException("ZeroDivisionError", asFloat ? "float modulo" : "integer modulo by zero");
  return asFloat ? pyFloat(floatModulo(x, y)) : floatModulo(x, y);
}

/**
 * `a <op> b` (or `a <op>= b` when `augmented`, which only changes the wording of the TypeError). Lists given
 * to `+` and `*` are never mutated.
 */
export function pyBinary(operator: ArithmeticOperator, a: PyValue, b: PyValue, augmented = false): PyValue {
  const x = asNumber(a);
  const y = asNumber(b);
  if (x !== undefined && y !== undefined) {
    if (operator === "+") return pyAdd(x, y);
    if (operator === "-") return pySub(x, y);
    if (operator === "*") return pyMul(x, y);
    if (operator === "/") return pyTrueDiv(x, y);
    return numericModulo(x, y);
  }
  const shown = augmented ? `${operator}=` : operator;
  if (operator === "%" && typeof a === "string")
    throw new Error("pyBinary: str % x is printf-style formatting, which no backend reaches");
  if (operator === "+" && isSequence(a)) {
    if (augmented && Array.isArray(a)) return [...a, ...pyIterateForExtend(b)];
    return concatenate(a, b);
  }
  if (operator === "*") {
    if (isSequence(a)) return repeat(a, b);
    if (isSequence(b)) return repeat(b, a);
  }
  throw unsupported(shown, a, b);
}

/** `list += x` extends the list with any iterable (a str adds its characters). */
function pyIterateForExtend(value: PyValue): readonly PyValue[] {
  if (Array.isArray(value)) return value;
  if (isTuple(value)) return value.items;
  if (typeof value === "string") return Array.from(value);
  if (value instanceof Map || value instanceof Set) return [...value.keys()];
  throw new PyException("TypeError", `'${pyTypeName(value)}' object is not iterable`);
}

/** abs(x) for numbers and bools; TypeError "bad operand type for abs(): 'str'" otherwise. */
export function pyAbs(value: PyValue): PyNumber {
  const x = asNumber(value);
  if (x === undefined) throw new PyException("TypeError", `bad operand type for abs(): '${pyTypeName(value)}'`);
  return typeof x === "number" ? Math.abs(x) : pyFloat(Math.abs(x.value));
}

function compareCodePoints(a: string, b: string): number {
  const left = Array.from(a);
  const right = Array.from(b);
  const length = Math.min(left.length, right.length);
  for (let i = 0; i < length; i++) {
    const difference = (left[i] as string).codePointAt(0)! - (right[i] as string).codePointAt(0)!;
    if (difference !== 0) return difference;
  }
  return left.length - right.length;
}

function holds(operator: ComparisonOperator, order: number): boolean {
  if (operator === "<") return order < 0;
  if (operator === "<=") return order <= 0;
  if (operator === ">") return order > 0;
  return order >= 0;
}

function compareSequences(operator: ComparisonOperator, a: readonly PyValue[], b: readonly PyValue[]): boolean {
  const length = Math.min(a.length, b.length);
  for (let i = 0; i < length; i++) {
    if (!pyEquals(a[i] as PyValue, b[i] as PyValue)) return pyCompare(operator, a[i] as PyValue, b[i] as PyValue);
  }
  return holds(operator, a.length - b.length);
}

function isSubset(a: ReadonlySet<unknown>, b: ReadonlySet<unknown>): boolean {
  return [...a].every((item) => b.has(item));
}

/** `a <op> b` with Python's ordering rules; TypeError for types that do not order. */
export function pyCompare(operator: ComparisonOperator, a: PyValue, b: PyValue): boolean {
  const x = asNumber(a);
  const y = asNumber(b);
  if (x !== undefined && y !== undefined) {
    const left = typeof x === "number" ? x : x.value;
    const right = typeof y === "number" ? y : y.value;
    if (operator === "<") return left < right;
    if (operator === "<=") return left <= right;
    if (operator === ">") return left > right;
    return left >= right;
  }
  if (typeof a === "string" && typeof b === "string") return holds(operator, compareCodePoints(a, b));
  if (Array.isArray(a) && Array.isArray(b)) return compareSequences(operator, a, b);
  if (isTuple(a) && isTuple(b)) return compareSequences(operator, a.items, b.items);
  if (a instanceof Set && b instanceof Set) {
    if (operator === "<=") return isSubset(a, b);
    if (operator === ">=") return isSubset(b, a);
    if (operator === "<") return a.size < b.size && isSubset(a, b);
    return b.size < a.size && isSubset(b, a);
  }
  throw new PyException(
    "TypeError",
    `'${operator}' not supported between instances of '${pyTypeName(a)}' and '${pyTypeName(b)}'`,
  );
}
