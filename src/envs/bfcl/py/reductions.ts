// Python's reducing builtins on any iterable PyValue: sum() (adds left to right from 0, as CPython 3.11 does;
// 3.12 switched float sums to compensated summation), min() and max() (the first extreme item, compared with
// Python's ordering and its TypeErrors), and sorted() for lists of str (by code point).
import { pyIterate } from "./containers.js";
import { PyException } from "./errors.js";
import { pyBinary, pyCompare } from "./operators.js";
import { compareStr } from "./text.js";
import type { PyValue } from "./value.js";

/** sum(iterable). */
export function pySum(values: PyValue): PyValue {
  let total: PyValue = 0;
  for (const item of pyIterate(values)) total = pyBinary("+", total, item);
  return total;
}

function extreme(values: PyValue, operator: "<" | ">", name: string): PyValue {
  const items = pyIterate(values);
  if (items.length === 0) throw new PyException("ValueError", `${name}() arg is an empty sequence`);
  let best = items[0] as PyValue;
  for (const item of items.slice(1)) if (pyCompare(operator, item, best)) best = item;
  return best;
}

/** min(iterable). */
export function pyMin(values: PyValue): PyValue {
  return extreme(values, "<", "min");
}

/** max(iterable). */
export function pyMax(values: PyValue): PyValue {
  return extreme(values, ">", "max");
}

/** sorted(list_of_str). */
export function sortedStrings(items: readonly string[]): string[] {
  return [...items].sort(compareStr);
}
