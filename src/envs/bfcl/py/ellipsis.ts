// Python's Ellipsis (`...`) as a value: a singleton whose repr and str are "Ellipsis", equal only to itself.
// Upstream's long_context.WATCH_LIST_EXTENSION holds one; the data dir writes it as {"__python_ellipsis__": true}.
import type { PyObject, PyValue } from "./value.js";

export const PY_ELLIPSIS: PyObject = Object.freeze({
  kind: "object" as const,
  pyClass: "ellipsis",
  pyAttributes: () => [],
  pyRepr: () => "Ellipsis",
  pyEquals: (other: PyValue) => other === PY_ELLIPSIS,
});

export function isEllipsis(value: PyValue | undefined): boolean {
  return value === PY_ELLIPSIS;
}
