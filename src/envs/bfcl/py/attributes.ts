// Instance attributes as upstream Python keeps them: an insertion-ordered __dict__ (what vars() returns and the
// state checker compares) and `self.<name>` look-ups that raise Python's AttributeError when never assigned.
// Backends that store their state this way print and compare it in upstream's attribute order for free.
import { PyException } from "./errors.js";
import type { PyValue } from "./value.js";

/** An instance's __dict__: attribute name -> value, in first-assignment order (re-assignment keeps the place). */
export type InstanceVars = Map<string, PyValue>;

/** vars(instance) without "_" names, in order. */
export function publicAttributes(vars: InstanceVars): readonly (readonly [string, PyValue])[] {
  return [...vars].filter(([name]) => !name.startsWith("_"));
}

/** self.<name>. */
export function attribute(vars: InstanceVars, owner: string, name: string): PyValue {
  const value = vars.get(name);
  if (value === undefined) throw new PyException("AttributeError", `'${owner}' object has no attribute '${name}'`);
  return value;
}
