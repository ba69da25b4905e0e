// Python's ordering operators (<, <=, >, >=) on PyValues: numbers across int/float/bool, str by code point,
// lists and tuples lexicographically, sets by inclusion; anything else raises CPython's TypeError
// ("'<' not supported between instances of 'str' and 'int'"). Also min()/max() and sorted() for str lists.
import { pyIterate } from "./containers.js";
import { pyRaise } from "./errors.js";
import { compareStr } from "./strings.js";
import { isFloat, isTuple, pyEquals, pyTypeName, type PyValue } from "./value.js";

export type PyOrderOp = "<" | "<=" | ">" | ">=";

function numeric(value: PyValue): number | undefined {
  if (typeof value === "number") return value;
  if (typeof value === "boolean") return value ? 1 : 0;
  if (isFloat(value)) return value.value;
  return undefined;
}

function decide(op: PyOrderOp, order: number): boolean {
  if (op === "<") return order < 0;
  if (op === "<=") return order <= 0;
  if (op === ">") return order > 0;
  return order >= 0;
}

function sequenceCompare(op: PyOrderOp, left: readonly PyValue[], right: readonly PyValue[]): boolean {
  const length = Math.min(left.length, right.length);
  for (let i = 0; i < length; i++) {
    const a = left[i] as PyValue;
    const b = right[i] as PyValue;
    if (!pyEquals(a, b)) return pyCompare(op, a, b);
  }
  return decide(op, left.length - right.length);
}

function setCompare(op: PyOrderOp, left: Set<PyValue>, right: Set<PyValue>): boolean {
  const within = (small: Set<PyValue>, large: Set<PyValue>): boolean => [...small].every((item) => [...large].some((other) => pyEquals(item, other)));
  if (op === "<=") return within(left, right);
  if (op === ">=") return within(right, left);
  if (op === "<") return left.size < right.size && within(left, right);
  return left.size > right.size && within(right, left);
}

/** `a <op> b`. */
export function pyCompare(op: PyOrderOp, a: PyValue, b: PyValue): boolean {
  const x = numeric(a);
  const y = numeric(b);
  if (x !== undefined && y !== undefined) {
    if (op === "<") return x < y;
    if (op === "<=") return x <= y;
    if (op === ">") return x > y;
    return x >= y;
  }
  if (typeof a === "string" && typeof b === "string") return decide(op, compareStr(a, b));
  if (Array.isArray(a) && Array.isArray(b)) return sequenceCompare(op, a, b);
  if (isTuple(a) && isTuple(b)) return sequenceCompare(op, a.items, b.items);
  if (a instanceof Set && b instanceof Set) return setCompare(op, a, b);
  return pyRaise("TypeError", `'${op}' not supported between instances of '${pyTypeName(a)}' and '${pyTypeName(b)}'`);
}

function extreme(values: PyValue, op: "<" | ">", name: string): PyValue {
  const items = pyIterate(values);
  if (items.length === 0) pyRaise("ValueError", `${name}() arg is an empty sequence`);
  let best = items[0] as PyValue;
  for (const item of items.slice(1)) if (pyCompare(op, item, best)) best = item;
  return best;
}

/** min(iterable): the first smallest item. */
export function pyMin(values: PyValue): PyValue {
  return extreme(values, "<", "min");
}

/** max(iterable): the first largest item. */
export function pyMax(values: PyValue): PyValue {
  return extreme(values, ">", "max");
}

/** sorted(list_of_str). */
export function sortedStrings(items: readonly string[]): string[] {
  return [...items].sort(compareStr);
}
