// Instance attributes as upstream Python keeps them: an insertion-ordered __dict__ (what vars() returns and
// the state checker compares), scenario.get(key, default) look-ups, DEFAULT_STATE copies, and bound-argument
// access for method implementations.
import { pyRaise } from "./errors.js";
import { dictGet, pyDeepCopy, type PyDict, type PyValue } from "./value.js";

/** An instance's __dict__: attribute name -> value, in first-assignment order (re-assignment keeps the place). */
export type InstanceVars = Map<string, PyValue>;

/** vars(instance) without "_" names, in order. */
export function publicAttributes(vars: InstanceVars): readonly (readonly [string, PyValue])[] {
  return [...vars].filter(([name]) => !name.startsWith("_"));
}

/** self.<name>: AttributeError (as Python words it) when the attribute was never assigned. */
export function attribute(vars: InstanceVars, owner: string, name: string): PyValue {
  const value = vars.get(name);
  return value === undefined ? pyRaise("AttributeError", `'${owner}' object has no attribute '${name}'`) : value;
}

/** A bound argument of a method call (the executor fills defaults, so absence is a programming error). */
export function argument(args: ReadonlyMap<string, PyValue>, name: string): PyValue {
  const value = args.get(name);
  if (value === undefined) throw new Error(`BFCL backend: argument '${name}' was not bound; hint: the executor must fill defaults from MethodSpec.params`);
  return value;
}

/** scenario.get(key, fallback). */
export function scenarioValue(scenario: PyDict, key: string, fallback: PyValue): PyValue {
  const value = dictGet(scenario, key);
  return value === undefined ? fallback : value;
}

/** deepcopy(DEFAULT_STATE) of an upstream module, from default_state.json. */
export function moduleDefaults(defaultState: PyDict, moduleName: string): PyDict {
  const defaults = dictGet(defaultState, moduleName);
  if (!(defaults instanceof Map)) throw new Error(`BFCL constants: default_state.json has no dict for module '${moduleName}'; hint: pass the data dir's default_state.json`);
  return pyDeepCopy(defaults);
}

/** A default-state entry that must exist. */
export function defaultValue(defaults: PyDict, key: string): PyValue {
  const value = dictGet(defaults, key);
  if (value === undefined) throw new Error(`BFCL constants: DEFAULT_STATE has no '${key}'; hint: check default_state.json`);
  return value;
}
