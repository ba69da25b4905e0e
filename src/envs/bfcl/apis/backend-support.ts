// What the backend classes share, in one place: reading a scenario the way upstream's _load_scenario does
// (`scenario.get(key, deepcopy(DEFAULT_STATE)[key])`), checking that trusted config data has the shape the
// class needs (a clear error naming the field, before any call runs), reading long-context constants, reading
// bound call arguments, upstream's `{"error": ...}` result dict, and method specs for the common one-argument
// and no-argument signatures.
import { pyDeepCopy, pyDictOf, pyTypeName, type PyDict, type PyValue } from "../py/value.js";
import type { BfclConstants, MethodSpec } from "./backend-class.js";

/** A scenario or constant that does not have the shape upstream's data has: a data error, not model input. */
export class BfclDataError extends Error {
  constructor(message: string) {
    super(
      `${message} (hint: check initial_config in the entry, or default_state.json / long_context.json in the data dir)`,
    );
    this.name = "BfclDataError";
  }
}

/** A module's DEFAULT_STATE dict from default_state.json. */
export function moduleDefaults(constants: BfclConstants, moduleName: string): PyDict {
  const defaults = constants.defaultState.get(moduleName);
  if (!(defaults instanceof Map)) throw new BfclDataError(`default_state has no dict for module '${moduleName}'`);
  return defaults;
}

/** scenario.get(key, deepcopy(defaults)[defaultKey]). */
export function scenarioValue(scenario: PyDict, key: string, defaults: PyDict, defaultKey: string = key): PyValue {
  if (scenario.has(key)) return scenario.get(key) as PyValue;
  if (!defaults.has(defaultKey)) throw new BfclDataError(`default state has no '${defaultKey}'`);
  return pyDeepCopy(defaults.get(defaultKey) as PyValue);
}

export function expectDict(value: PyValue, field: string): PyDict {
  if (!(value instanceof Map)) throw new BfclDataError(`${field} must be a dict, got ${pyTypeName(value)}`);
  return value;
}

export function expectList(value: PyValue, field: string): PyValue[] {
  if (!Array.isArray(value)) throw new BfclDataError(`${field} must be a list, got ${pyTypeName(value)}`);
  return value;
}

export function expectInt(value: PyValue, field: string): number {
  if (typeof value !== "number") throw new BfclDataError(`${field} must be an int, got ${pyTypeName(value)}`);
  return value;
}

/** A constant of upstream long_context.py. */
export function longContextConstant(constants: BfclConstants, name: string): PyValue {
  const value = constants.longContext.get(name);
  if (value === undefined) throw new BfclDataError(`long_context has no constant '${name}'`);
  return value;
}

/** A bound argument (the binder fills every parameter, defaults included). */
export function argument(args: ReadonlyMap<string, PyValue>, name: string): PyValue {
  const value = args.get(name);
  if (value === undefined)
    throw new Error(`argument '${name}' was not bound: the method's params and its body disagree`);
  return value;
}

/** `{"error": text}`: the result dict every backend returns when it refuses a request. */
export function errorResult(text: string): PyDict {
  return pyDictOf({ error: text });
}

/** A method with one parameter `name` (no default), run with that argument. */
export function oneArgumentMethod<TInstance>(
  name: string,
  run: (self: TInstance, value: PyValue) => PyValue,
): MethodSpec<TInstance> {
  return { params: [{ name }], run: (self, args) => run(self, argument(args, name)) };
}

/** A method without parameters. */
export function noArgumentMethod<TInstance>(run: (self: TInstance) => PyValue): MethodSpec<TInstance> {
  return { params: [], run: (self) => run(self) };
}
