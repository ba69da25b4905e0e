// Binding a call's positional and keyword arguments to a method's parameters, raising the TypeErrors CPython
// 3.11 raises (same wording, same order of checks: unexpected keyword, multiple values, too many positional,
// missing required), so that a model sees upstream's exact error text. The parameters bound to (ParamSpec) are
// declared here, where binding reads them; the backend classes (apis/) declare their methods with them.
import { PyException } from "../py/errors.js";
import { pyDeepCopy, type PyValue } from "../py/value.js";
import type { Call } from "./call.js";

/** One parameter of an upstream method, in declaration order (self excluded): what a call's arguments bind to. */
export interface ParamSpec {
  readonly name: string;
  /** Present when the parameter has a default (the value upstream declares). */
  readonly default?: PyValue;
}

function listNames(names: readonly string[]): string {
  const quoted = names.map((name) => `'${name}'`);
  if (quoted.length === 1) return quoted[0] as string;
  if (quoted.length === 2) return `${quoted[0]} and ${quoted[1]}`;
  return `${quoted.slice(0, -1).join(", ")}, and ${quoted[quoted.length - 1]}`;
}

function plural(count: number, word: string): string {
  return `${count} ${word}${count === 1 ? "" : "s"}`;
}

/** Bind arguments of `call` to `params` of `qualifiedName` (e.g. "GorillaFileSystem.cd"). */
export function bindArguments(
  qualifiedName: string,
  params: readonly ParamSpec[],
  call: Pick<Call, "args" | "kwargs">,
): Map<string, PyValue> {
  const bound = new Map<string, PyValue>();
  call.args.forEach((value, index) => {
    const param = params[index];
    if (param !== undefined) bound.set(param.name, value);
  });
  for (const [key, value] of call.kwargs) {
    const index = params.findIndex((param) => param.name === key);
    if (index < 0) throw new PyException("TypeError", `${qualifiedName}() got an unexpected keyword argument '${key}'`);
    if (index < call.args.length)
      throw new PyException("TypeError", `${qualifiedName}() got multiple values for argument '${key}'`);
    bound.set(key, value);
  }
  if (call.args.length > params.length) {
    const required = params.filter((param) => !("default" in param)).length;
    const takes =
      required === params.length
        ? plural(params.length + 1, "positional argument")
        : `from ${required + 1} to ${params.length + 1} positional arguments`;
    const given = call.args.length + 1;
    throw new PyException(
      "TypeError",
      `${qualifiedName}() takes ${takes} but ${given} ${given === 1 ? "was" : "were"} given`,
    );
  }
  const missing = params.filter((param) => !bound.has(param.name) && !("default" in param)).map((param) => param.name);
  if (missing.length > 0) {
    throw new PyException(
      "TypeError",
      `${qualifiedName}() missing ${plural(missing.length, "required positional argument")}: ${listNames(missing)}`,
    );
  }
  for (const param of params) {
    // Python shares a mutable default between calls; no backend mutates its defaults, so a copy per call is
    // equivalent and keeps our code from aliasing them by accident.
    if (!bound.has(param.name) && "default" in param) bound.set(param.name, pyDeepCopy(param.default as PyValue));
  }
  return bound;
}
