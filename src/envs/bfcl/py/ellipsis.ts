// Python's Ellipsis (`...`) as a PyValue. Upstream long_context.WATCH_LIST_EXTENSION holds one; the data files
// write it as {"__python_ellipsis__": true}, and fromEllipsisMarker turns that marker back into the singleton.
import type { PyObject, PyValue } from "./value.js";

export const PY_ELLIPSIS: PyObject = {
  kind: "object",
  pyClass: "ellipsis",
  pyAttributes: () => [],
  pyRepr: () => "Ellipsis",
  pyEquals: (other) => other === PY_ELLIPSIS,
};

/** The value with the data files' Ellipsis marker replaced by PY_ELLIPSIS (other values unchanged). */
export function fromEllipsisMarker(value: PyValue): PyValue {
  if (value instanceof Map && value.size === 1 && value.get("__python_ellipsis__") === true) return PY_ELLIPSIS;
  return value;
}
