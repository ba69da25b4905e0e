// The shape every BFCL backend class takes in TypeScript, so the executor, the checkers and `bfcl run` can
// drive all eight of them the same way. One file per upstream class under apis/ implements BfclClass.
//
// Upstream, an entry's involved classes are instantiated once per entry (model side and ground-truth side
// separately), non-stateless ones get `_load_scenario(deepcopy(initial_config[class]), long_context)`, and every
// public method (no leading "_") is callable by name. A call's return value becomes the result string
// (py/format.ts: resultString); an exception becomes "Error during execution: " + str(exception).
import type { ParamSpec } from "../calls/bind.js";
import type { PyDict, PyValue } from "../py/value.js";

/** A public upstream method: its Python signature and its implementation. */
export interface MethodSpec<TInstance> {
  readonly params: readonly ParamSpec[];
  /** Runs with arguments bound by name (defaults filled in); throws PyException as upstream raises. */
  run(instance: TInstance, args: ReadonlyMap<string, PyValue>): PyValue;
}

/** Data upstream keeps as module constants, read from the data dir (default_state.json, long_context.json). */
export interface BfclConstants {
  /** Module name ("trading_bot", ...) -> that module's DEFAULT_STATE dict. */
  readonly defaultState: PyDict;
  /** Constant name ("FILE_CONTENT_EXTENSION", ...) -> value. */
  readonly longContext: PyDict;
}

/** A live instance of an upstream class. */
export interface BfclInstance {
  /** Upstream `_load_scenario(scenario, long_context)`; not called for stateless classes (MathAPI). */
  loadScenario(scenario: PyDict, longContext: boolean): void;
  /** Public attributes (vars() without "_" names) in upstream insertion order: what the state checker compares. */
  publicState(): readonly (readonly [string, PyValue])[];
}

export interface BfclClass<TInstance extends BfclInstance = BfclInstance> {
  /** Upstream class name, e.g. "GorillaFileSystem". */
  readonly className: string;
  /** Upstream module name, e.g. "gorilla_file_system" (key of default_state.json). */
  readonly moduleName: string;
  /** Upstream STATELESS_CLASSES: no scenario is loaded. */
  readonly stateless: boolean;
  /** Upstream `__init__` (the constants stand in for module-level data). */
  create(constants: BfclConstants): TInstance;
  /** Every public method, keyed by name, in upstream definition order. */
  readonly methods: Readonly<Record<string, MethodSpec<TInstance>>>;
}

/** Type-erased form held by registries. */
export type AnyBfclClass = BfclClass<BfclInstance>;

/** Identity helper that keeps the instance type while checking the shape. */
export function defineBfclClass<TInstance extends BfclInstance>(
  definition: BfclClass<TInstance>,
): BfclClass<TInstance> {
  return definition;
}
