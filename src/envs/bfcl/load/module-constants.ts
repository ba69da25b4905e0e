// The data upstream keeps as module constants, read from the data dir:
//   default_state.json   module name -> that backend's DEFAULT_STATE (as written: JSON string keys, lists for sets)
//   long_context.json    constant name -> value (the long_context category's extensions)
// A {"__python_ellipsis__": true} object stands for Python's Ellipsis and becomes PY_ELLIPSIS. The JSON copies
// were written with sorted keys: dicts whose key set upstream defines are put back in upstream's insertion
// order (upstream-key-order.ts), since results print dicts in that order.
import { join } from "node:path";
import type { BfclConstants } from "../apis/backend-class.js";
import { fromEllipsisMarker } from "../py/ellipsis.js";
import { keyOrderTable, restoreKeyOrder } from "../py/key-order.js";
import { isDict, isList, isTuple, pyTuple, type PyDict, type PyValue } from "../py/value.js";
import { dictAt, readJsonFile } from "./json-files.js";
import { UPSTREAM_KEY_ORDERS } from "./upstream-key-order.js";

/** The value with every Ellipsis marker replaced by PY_ELLIPSIS, at any depth (containers are rebuilt). */
export function restoreEllipsis(value: PyValue): PyValue {
  if (isList(value)) return value.map(restoreEllipsis);
  if (isDict(value)) {
    const marker = fromEllipsisMarker(value);
    if (marker !== value) return marker;
    const out: PyDict = new Map();
    for (const [key, inner] of value) out.set(key, restoreEllipsis(inner));
    return out;
  }
  if (isTuple(value)) return pyTuple(value.items.map(restoreEllipsis));
  return value;
}

export function loadConstants(dataDir: string): BfclConstants {
  const defaultPath = join(dataDir, "default_state.json");
  const longPath = join(dataDir, "long_context.json");
  const table = keyOrderTable(UPSTREAM_KEY_ORDERS);
  const defaultState = dictAt(
    { file: defaultPath, line: 1 },
    "default_state.json",
    restoreKeyOrder(readJsonFile(defaultPath), table),
  );
  const longContext = dictAt(
    { file: longPath, line: 1 },
    "long_context.json",
    restoreKeyOrder(restoreEllipsis(readJsonFile(longPath)), table),
  );
  return { defaultState, longContext };
}
