// Python's container protocol on PyValues, with CPython's errors: `x in c` (substring, element equality,
// hashed key lookup), hashability, d[k] / d.get(k) / d[k] = v with Python key equality (1 == 1.0 == True),
// iteration, len(), list.remove(). Backends call these where upstream applies the operator to model input,
// so a wrong argument type gives upstream's TypeError text instead of a JavaScript failure.
import { pyRaise } from "./errors.js";
import { pyRepr } from "./format.js";
import { dictGet, isFloat, isTuple, pyEquals, pyTypeName, type PyDict, type PyKey, type PyValue } from "./value.js";

/** TypeError("unhashable type: ...") for list, dict, set and tuples holding them. */
export function requireHashable(value: PyValue): void {
  if (Array.isArray(value) || value instanceof Map || value instanceof Set) pyRaise("TypeError", `unhashable type: '${pyTypeName(value)}'`);
  if (isTuple(value)) value.items.forEach(requireHashable);
}

/** The PyKey a hashable value would match, or undefined when it can equal no str/int/bool/None key. */
function matchingKey(value: PyValue): PyKey | undefined {
  if (value === null || typeof value === "string" || typeof value === "number" || typeof value === "boolean") return value;
  if (isFloat(value) && Number.isInteger(value.value)) return value.value;
  return undefined;
}

/** `key in dict`. */
export function pyDictHas(dict: PyDict, key: PyValue): boolean {
  return pyDictGet(dict, key) !== undefined;
}

/** dict.get(key): undefined when absent (TypeError when key is unhashable). */
export function pyDictGet(dict: PyDict, key: PyValue): PyValue | undefined {
  requireHashable(key);
  const candidate = matchingKey(key);
  return candidate === undefined ? undefined : dictGet(dict, candidate);
}

/** dict[key]: KeyError(repr(key)) when absent. */
export function pyDictItem(dict: PyDict, key: PyValue): PyValue {
  const value = pyDictGet(dict, key);
  return value === undefined ? pyRaise("KeyError", pyRepr(key)) : value;
}

/** dict[key] = value: an equal existing key keeps its place (and its own type), a new key goes last. */
export function pyDictSet(dict: PyDict, key: PyValue, value: PyValue): void {
  requireHashable(key);
  const candidate = matchingKey(key);
  if (candidate === undefined) pyRaise("TypeError", `budgetrl supports only str, int, bool and None dict keys, not '${pyTypeName(key)}'`);
  for (const existing of dict.keys()) {
    if (pyEquals(existing, candidate)) {
      dict.set(existing, value);
      return;
    }
  }
  dict.set(candidate, value);
}

/** `item in container`. */
export function pyIn(item: PyValue, container: PyValue): boolean {
  if (typeof container === "string") {
    if (typeof item !== "string") pyRaise("TypeError", `'in <string>' requires string as left operand, not ${pyTypeName(item)}`);
    return container.includes(item);
  }
  if (Array.isArray(container)) return container.some((element) => pyEquals(element, item));
  if (isTuple(container)) return container.items.some((element) => pyEquals(element, item));
  if (container instanceof Map) return pyDictHas(container, item);
  if (container instanceof Set) {
    requireHashable(item);
    return [...container].some((element) => pyEquals(element, item));
  }
  return pyRaise("TypeError", `argument of type '${pyTypeName(container)}' is not iterable`);
}

/** The items `for x in value` visits: list/tuple items, str code points, dict keys, set elements. */
export function pyIterate(value: PyValue): PyValue[] {
  if (typeof value === "string") return [...value];
  if (Array.isArray(value)) return [...value];
  if (isTuple(value)) return [...value.items];
  if (value instanceof Map) return [...value.keys()];
  if (value instanceof Set) return [...value];
  return pyRaise("TypeError", `'${pyTypeName(value)}' object is not iterable`);
}

/** len(value). */
export function pyLen(value: PyValue): number {
  if (typeof value === "string") return [...value].length;
  if (Array.isArray(value)) return value.length;
  if (isTuple(value)) return value.items.length;
  if (value instanceof Map || value instanceof Set) return value.size;
  return pyRaise("TypeError", `object of type '${pyTypeName(value)}' has no len()`);
}

/** list.remove(item): drops the first element equal to item. */
export function pyListRemove(list: PyValue[], item: PyValue): void {
  const index = list.findIndex((element) => pyEquals(element, item));
  if (index < 0) pyRaise("ValueError", "list.remove(x): x not in list");
  list.splice(index, 1);
}

/** The list receiver of `value.<method>()`, or the AttributeError Python raises. */
export function requireList(value: PyValue, method: string): PyValue[] {
  if (Array.isArray(value)) return value;
  return pyRaise("AttributeError", `'${pyTypeName(value)}' object has no attribute '${method}'`);
}

/** The dict receiver of `value.<method>()`, or the AttributeError Python raises. */
export function requireDict(value: PyValue, method: string): PyDict {
  if (value instanceof Map) return value;
  return pyRaise("AttributeError", `'${pyTypeName(value)}' object has no attribute '${method}'`);
}

/** value[key]: dict lookup (KeyError when absent), list/tuple indexing by int, TypeError otherwise. */
export function pySubscript(value: PyValue, key: PyValue): PyValue {
  if (value instanceof Map) return pyDictItem(value, key);
  const items = Array.isArray(value) ? value : isTuple(value) ? value.items : undefined;
  if (items !== undefined && (typeof key === "number" || typeof key === "boolean")) {
    const index = Number(key);
    const position = index < 0 ? index + items.length : index;
    if (position < 0 || position >= items.length) pyRaise("IndexError", `${pyTypeName(value)} index out of range`);
    return items[position] as PyValue;
  }
  if (typeof value === "string") return pyRaise("TypeError", `string indices must be integers, not '${pyTypeName(key)}'`);
  if (Array.isArray(value) || isTuple(value)) {
    return pyRaise("TypeError", `${pyTypeName(value)} indices must be integers or slices, not ${pyTypeName(key)}`);
  }
  return pyRaise("TypeError", `'${pyTypeName(value)}' object is not subscriptable`);
}
