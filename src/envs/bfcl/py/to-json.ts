// Python values as plain JSON for the store, verdict details and tool schemas: dicts become objects (keys as
// Python's str() of the key), tuples lists, sets sorted lists, floats numbers (non-finite ones their repr
// text, since JSON has no NaN), instances {"__class__": name, ...public attributes} without back-references,
// Ellipsis the text "Ellipsis".
import type { Json } from "../../../core/json.js";
import { comparePyKeys, floatRepr, pyKeyText } from "./format.js";
import { isFloat, isPyObject, isTuple, type PyObject, type PyValue } from "./value.js";

function numberJson(value: number): Json {
  return Number.isFinite(value) ? value : floatRepr(value);
}

function convert(value: PyValue, ancestors: readonly PyObject[]): Json {
  if (value === null || typeof value === "boolean" || typeof value === "string") return value;
  if (typeof value === "number") return numberJson(value);
  if (Array.isArray(value)) return value.map((item) => convert(item, ancestors));
  if (value instanceof Map) {
    const out: Record<string, Json> = {};
    for (const [key, inner] of value) out[pyKeyText(key)] = convert(inner, ancestors);
    return out;
  }
  if (value instanceof Set) return [...value].sort(comparePyKeys).map((key) => convert(key, ancestors));
  if (isFloat(value)) return numberJson(value.value);
  if (isTuple(value)) return value.items.map((item) => convert(item, ancestors));
  if (isPyObject(value)) {
    const attributes = value.pyAttributes();
    if (attributes.length === 0 && value.pyClass === "ellipsis") return "Ellipsis";
    const out: Record<string, Json> = { __class__: value.pyClass };
    const inside = [...ancestors, value];
    for (const [name, inner] of attributes) {
      if (isPyObject(inner) && inside.includes(inner)) continue;
      out[name] = convert(inner, inside);
    }
    return out;
  }
  return null;
}

export function pyToJson(value: PyValue): Json {
  return convert(value, []);
}
