// More of Python's container protocol on PyValues, next to containers.ts and subscript.ts: len(), list.remove(),
// the receivers of list/dict methods (AttributeError for anything else, as Python raises it), dict.get(key)
// as "present or not", and d[key] = value that answers a model-supplied key we cannot store (a tuple, an
// instance) with a Python-style TypeError instead of an internal error.
import { dictFindKey } from "./containers.js";
import { PyException } from "./errors.js";
import { pySetItem } from "./subscript.js";
import { isFloat, isTuple, pyEquals, pyTypeName, type PyDict, type PyValue } from "./value.js";

function noAttribute(value: PyValue, name: string): PyException {
  return new PyException("AttributeError", `'${pyTypeName(value)}' object has no attribute '${name}'`);
}

/** The list receiver of `value.<method>()`. */
export function requireList(value: PyValue, method: string): PyValue[] {
  if (Array.isArray(value)) return value;
  throw noAttribute(value, method);
}

/** The dict receiver of `value.<method>()`. */
export function requireDict(value: PyValue, method: string): PyDict {
  if (value instanceof Map) return value;
  throw noAttribute(value, method);
}

/** len(value). */
export function pyLen(value: PyValue): number {
  if (typeof value === "string") return Array.from(value).length;
  if (Array.isArray(value)) return value.length;
  if (isTuple(value)) return value.items.length;
  if (value instanceof Map || value instanceof Set) return value.size;
  throw new PyException("TypeError", `object of type '${pyTypeName(value)}' has no len()`);
}

/** list.remove(item): drops the first element equal to item. */
export function pyListRemove(list: PyValue[], item: PyValue): void {
  const index = list.findIndex((element) => pyEquals(element, item));
  if (index < 0) throw new PyException("ValueError", "list.remove(x): x not in list");
  list.splice(index, 1);
}

/** dict.get(key) on a dict: the value, or undefined when absent (TypeError for an unhashable key). */
export function dictLookup(dict: PyDict, key: PyValue): PyValue | undefined {
  const found = dictFindKey(dict, key);
  return found === undefined ? undefined : dict.get(found);
}

/** dict[key] = value for keys from model input: str, int, float, bool and None; other hashables refused. */
export function setDictItem(dict: PyDict, key: PyValue, value: PyValue): void {
  const storable =
    key === null || typeof key === "string" || typeof key === "number" || typeof key === "boolean" || isFloat(key);
  if (!storable && dictFindKey(dict, key) === undefined) {
    throw new PyException(
      "TypeError",
      `budgetrl stores only str, int, float, bool and None dict keys, not '${pyTypeName(key)}'`,
    );
  }
  pySetItem(dict, key, value);
}
