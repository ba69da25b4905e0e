// The public state of backend instances as plain Python data, for display and comparison outside Python:
// dict keys become strings, sets become sorted lists, tuples lists, and instances (File, Directory, ...)
// {"__class__": name, ...public attributes}, skipping back-references (a Directory's parent) to stay a tree.
import type { BfclInstance } from "../apis/backend-class.js";
import { comparePyKeys, pyKeyText } from "../py/format.js";
import { isPyObject, isTuple, type PyDict, type PyObject, type PyValue } from "../py/value.js";

function plain(value: PyValue, ancestors: readonly PyObject[]): PyValue {
  if (Array.isArray(value)) return value.map((item) => plain(item, ancestors));
  if (value instanceof Map) {
    const out: PyDict = new Map();
    for (const [key, inner] of value) out.set(pyKeyText(key), plain(inner, ancestors));
    return out;
  }
  if (value instanceof Set) return [...value].sort(comparePyKeys);
  if (isTuple(value)) return value.items.map((item) => plain(item, ancestors));
  if (isPyObject(value)) {
    const out: PyDict = new Map([["__class__", value.pyClass]]);
    const inside = [...ancestors, value];
    for (const [name, inner] of value.pyAttributes()) {
      if (isPyObject(inner) && inside.includes(inner)) continue;
      out.set(name, plain(inner, inside));
    }
    return out;
  }
  return value;
}

/** One instance's public attributes as plain data (a dict in upstream attribute order). */
export function instanceState(instance: BfclInstance): PyDict {
  const out: PyDict = new Map();
  for (const [name, value] of instance.publicState()) out.set(name, plain(value, []));
  return out;
}

/** Every instance of a set, keyed by class name. */
export function instancesState(instances: ReadonlyMap<string, BfclInstance>): PyDict {
  const out: PyDict = new Map();
  for (const [className, instance] of instances) out.set(className, instanceState(instance));
  return out;
}
