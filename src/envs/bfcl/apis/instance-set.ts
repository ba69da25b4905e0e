// Executing calls on a set of backend instances, as upstream's execute_multi_turn_func_call does: the involved
// classes are instantiated once per entry and loaded with a deep copy of their initial config; every public
// method of every instance is callable by bare name (a later class wins a name clash); the result of a call is
// its result string, and an exception becomes "Error during execution: ...". Model input never throws here.
import { bindArguments } from "../calls/bind.js";
import type { Call } from "../calls/call.js";
import { executionErrorText, PyException } from "../py/errors.js";
import { resultString } from "../py/format.js";
import { pyDeepCopy, type PyDict, type PyValue } from "../py/value.js";
import type { AnyBfclClass, BfclConstants, BfclInstance } from "./backend-class.js";

/** Upstream refuses these names before evaluating a call. */
const FORBIDDEN = new Set(["kill", "exit", "quit", "remove", "unlink", "popen", "Popen", "run"]);

interface Bound {
  readonly cls: AnyBfclClass;
  readonly instance: BfclInstance;
}

export interface InstanceSet {
  /** Class name -> live instance, in the entry's involved order. */
  readonly instances: ReadonlyMap<string, BfclInstance>;
  /** Method name -> owning class and instance. */
  readonly methods: ReadonlyMap<string, Bound>;
}

export interface CallOutcome {
  /** The result string the model sees. */
  readonly text: string;
  /** False when the call raised (the text then starts with "Error during execution: "). */
  readonly ok: boolean;
  /** Set when our own code failed on the arguments (a JS error, not a Python exception): worth a bug report. */
  readonly internal?: string;
}

export function createInstanceSet(
  classes: readonly AnyBfclClass[],
  initialConfig: PyDict,
  longContext: boolean,
  constants: BfclConstants,
): InstanceSet {
  const instances = new Map<string, BfclInstance>();
  const methods = new Map<string, Bound>();
  for (const cls of classes) {
    const instance = cls.create(constants);
    if (!cls.stateless) {
      const config = initialConfig.get(cls.className);
      instance.loadScenario(config instanceof Map ? pyDeepCopy(config) : new Map(), longContext);
    }
    instances.set(cls.className, instance);
    for (const name of Object.keys(cls.methods)) methods.set(name, { cls, instance });
  }
  return { instances, methods };
}

/**
 * Run one call. `available`, when given, restricts which functions may run in this turn (excluded and held-out
 * functions answer as undefined names do upstream).
 */
export function executeCall(set: InstanceSet, call: Call, available?: ReadonlySet<string>): CallOutcome {
  const shortName = call.name.includes(".") ? (call.name.split(".")[1] as string) : call.name;
  if (FORBIDDEN.has(shortName)) return failure(`Function call ${shortName} is not allowed.`);
  const head = call.name.split(".")[0] as string;
  const bound = call.name.includes(".") ? undefined : set.methods.get(call.name);
  if (bound === undefined || (available !== undefined && !available.has(call.name)))
    return failure(`name '${head}' is not defined`);
  const method = bound.cls.methods[call.name];
  if (method === undefined) return failure(`name '${head}' is not defined`);
  try {
    const args = bindArguments(`${bound.cls.className}.${call.name}`, method.params, freshArguments(call));
    const value: PyValue = method.run(bound.instance, args);
    return { text: resultString(value), ok: true };
  } catch (error) {
    if (error instanceof PyException) return { text: executionErrorText(error), ok: false };
    const message = error instanceof Error ? error.message : String(error);
    return { text: `Error during execution: ${message}`, ok: false, internal: message };
  }
}

/** Upstream evaluates the call text, so every run gets new list and dict objects: backends may keep an argument
 * (a tweet keeps its `mentions` list) and mutate it later, which must never reach the Call (ground-truth calls
 * are parsed once and replayed many times). */
function freshArguments(call: Call): Pick<Call, "args" | "kwargs"> {
  return {
    args: call.args.map(pyDeepCopy),
    kwargs: call.kwargs.map(([key, value]) => [key, pyDeepCopy(value)] as const),
  };
}

function failure(text: string): CallOutcome {
  return { text: `Error during execution: ${text}`, ok: false };
}
