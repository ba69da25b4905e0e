// The data upstream keeps as module constants, read from the data dir:
//   default_state.json   module name -> that backend's DEFAULT_STATE (as written: JSON string keys, lists for sets)
//   long_context.json    constant name -> value (the long_context category's extensions)
// A {"__python_ellipsis__": true} object stands for Python's Ellipsis and becomes PY_ELLIPSIS.
import { join } from "node:path";
import type { BfclConstants } from "./api.js";
import { dictAt, readJsonFile } from "./data-files.js";
import { PY_ELLIPSIS } from "./py/ellipsis.js";
import { isDict, isList, isTuple, pyTuple, type PyDict, type PyValue } from "./py/value.js";

export const ELLIPSIS_MARKER = "__python_ellipsis__";

function isEllipsisMarker(value: PyDict): boolean {
  return value.size === 1 && value.get(ELLIPSIS_MARKER) === true;
}

/** The value with every Ellipsis marker replaced by PY_ELLIPSIS (a new value where anything changed). */
export function restoreEllipsis(value: PyValue): PyValue {
  if (isList(value)) return value.map(restoreEllipsis);
  if (isDict(value)) {
    if (isEllipsisMarker(value)) return PY_ELLIPSIS;
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
  const defaultState = dictAt({ file: defaultPath, line: 1 }, "default_state.json", readJsonFile(defaultPath));
  const longContext = dictAt({ file: longPath, line: 1 }, "long_context.json", restoreEllipsis(readJsonFile(longPath)));
  return { defaultState, longContext };
}
