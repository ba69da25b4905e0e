// Python subscription and the dict methods the BFCL backends use, on any PyValue, with CPython 3.11's errors:
// `x[k]` (dict key lookup, list/tuple/str indexing), `x[k] = v`, `x.get(k, default)` and `x.copy()`. Backend state
// loaded from a scenario may hold unexpected shapes (a str where a dict is expected), and upstream then raises
// these errors as the call's result, so we do the same.
import { dictFindKey } from "./containers.js";
import { PyException } from "./errors.js";
import { pyRepr } from "./format.js";
import { isFloat, isTuple, pyTypeName, type PyKey, type PyValue } from "./value.js";

function attributeError(value: PyValue, name: string): PyException {
  return new PyException("AttributeError", `'${pyTypeName(value)}' object has no attribute '${name}'`);
}

/** A sequence index: int or bool, as Python's __index__ accepts. */
function sequenceIndex(key: PyValue): number | undefined {
  if (typeof key === "number") return key;
  if (typeof key === "boolean") return key ? 1 : 0;
  return undefined;
}

function indexInto<T>(items: readonly T[], key: PyValue, kind: "list" | "tuple" | "string"): T {
  const index = sequenceIndex(key);
  if (index === undefined) {
    const text =
      kind === "string"
        ? `string indices must be integers, not '${pyTypeName(key)}'`
        : `${kind} indices must be integers or slices, not ${pyTypeName(key)}`;
    throw new PyException("TypeError", text);
  }
  const position = index < 0 ? index + items.length : index;
  if (position < 0 || position >= items.length) throw new PyException("IndexError", `${kind} index out of range`);
  return items[position] as T;
}

/** container[key]. */
export function pyGetItem(container: PyValue, key: PyValue): PyValue {
  if (container instanceof Map) {
    const found = dictFindKey(container, key);
    if (found === undefined) throw new PyException("KeyError", pyRepr(key));
    return container.get(found) as PyValue;
  }
  if (Array.isArray(container)) return indexInto(container, key, "list");
  if (isTuple(container)) return indexInto(container.items, key, "tuple");
  if (typeof container === "string") return indexInto(Array.from(container), key, "string");
  throw new PyException("TypeError", `'${pyTypeName(container)}' object is not subscriptable`);
}

/** A new dict key for `value` (existing equal keys are reused by pySetItem before this is needed). */
function newKey(value: PyValue): PyKey {
  if (value === null || typeof value === "string" || typeof value === "number" || typeof value === "boolean")
    return value;
  if (isFloat(value)) return value.value; // an integral float key then prints as an int: no backend inserts one
  throw new Error(`pySetItem: a ${pyTypeName(value)} dict key is beyond what the BFCL backends store`);
}

/** container[key] = value. */
export function pySetItem(container: PyValue, key: PyValue, value: PyValue): void {
  if (container instanceof Map) {
    const found = dictFindKey(container, key);
    container.set(found === undefined ? newKey(key) : found, value);
    return;
  }
  if (Array.isArray(container)) {
    const index = sequenceIndex(key);
    if (index === undefined)
      throw new PyException("TypeError", `list indices must be integers or slices, not ${pyTypeName(key)}`);
    const position = index < 0 ? index + container.length : index;
    if (position < 0 || position >= container.length)
      throw new PyException("IndexError", "list assignment index out of range");
    container[position] = value;
    return;
  }
  throw new PyException("TypeError", `'${pyTypeName(container)}' object does not support item assignment`);
}

/** container.get(key, fallback) for a dict; AttributeError for anything else. */
export function pyDictGet(container: PyValue, key: PyValue, fallback: PyValue): PyValue {
  if (!(container instanceof Map)) throw attributeError(container, "get");
  const found = dictFindKey(container, key);
  return found === undefined ? fallback : (container.get(found) as PyValue);
}

/** container.copy() (shallow) for a dict, list or set; AttributeError for anything else. */
export function pyShallowCopy(container: PyValue): PyValue {
  if (container instanceof Map) return new Map(container);
  if (Array.isArray(container)) return [...container];
  if (container instanceof Set) return new Set(container);
  throw attributeError(container, "copy");
}
