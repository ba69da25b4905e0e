// Python's container protocols on PyValues, with CPython 3.11's TypeErrors: hashing a dict key (`k in d`,
// `d[k]`, `d.get(k)`; lists, dicts and sets are unhashable), `x in container` for every container kind, and
// iteration (`for x in value`; a str yields its characters, a dict its keys).
import { PyException } from "./errors.js";
import { isFloat, isTuple, pyEquals, pyTypeName, type PyDict, type PyKey, type PyValue } from "./value.js";

function unhashable(value: PyValue): PyException {
  return new PyException("TypeError", `unhashable type: '${pyTypeName(value)}'`);
}

/** Raise Python's TypeError if `value` cannot be a dict key or set member (a tuple is hashable if its items are). */
export function assertHashable(value: PyValue): void {
  if (Array.isArray(value) || value instanceof Map || value instanceof Set) throw unhashable(value);
  if (isTuple(value)) for (const item of value.items) assertHashable(item);
}

/** The stored keys that can equal `value` under Python's hash/== rules (1 == 1.0 == True, 0 == False). */
function keyCandidates(value: PyValue): readonly PyKey[] {
  if (value === null || typeof value === "string") return [value];
  if (typeof value === "boolean") return [value, value ? 1 : 0];
  const number = typeof value === "number" ? value : isFloat(value) ? value.value : undefined;
  if (number === undefined) return []; // tuples and instances: never equal to a str/int/bool/None key
  if (Number.isNaN(number)) return []; // a fresh NaN equals no key
  if (number === 1) return [1, true];
  if (number === 0) return [0, false];
  return [number];
}

/** The key of `dict` equal to `value` (Python `value in dict`), or undefined; raises for unhashable values. */
export function dictFindKey(dict: PyDict, value: PyValue): PyKey | undefined {
  assertHashable(value);
  for (const candidate of keyCandidates(value)) if (dict.has(candidate)) return candidate;
  return undefined;
}

/** `value in dict`. */
export function dictHas(dict: PyDict, value: PyValue): boolean {
  return dictFindKey(dict, value) !== undefined;
}

/** `value in sequence` for a list or tuple: Python `==` item by item. */
export function sequenceHas(items: readonly PyValue[], value: PyValue): boolean {
  return items.some((item) => pyEquals(item, value));
}

/** `value in container` for any container, with CPython's TypeErrors for the rest. */
export function pyContains(container: PyValue, value: PyValue): boolean {
  if (Array.isArray(container)) return sequenceHas(container, value);
  if (isTuple(container)) return sequenceHas(container.items, value);
  if (container instanceof Map) return dictHas(container, value);
  if (container instanceof Set) {
    assertHashable(value);
    return keyCandidates(value).some((candidate) => container.has(candidate));
  }
  if (typeof container === "string") {
    if (typeof value !== "string")
      throw new PyException("TypeError", `'in <string>' requires string as left operand, not ${pyTypeName(value)}`);
    return container.includes(value);
  }
  throw new PyException("TypeError", `argument of type '${pyTypeName(container)}' is not iterable`);
}

/** The items `for x in value` visits; TypeError "'int' object is not iterable" for non-iterables. */
export function pyIterate(value: PyValue): readonly PyValue[] {
  if (Array.isArray(value)) return value;
  if (isTuple(value)) return value.items;
  if (typeof value === "string") return Array.from(value);
  if (value instanceof Map || value instanceof Set) return [...value.keys()];
  throw new PyException("TypeError", `'${pyTypeName(value)}' object is not iterable`);
}
