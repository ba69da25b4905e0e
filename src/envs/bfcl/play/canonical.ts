// Canonical forms of calls, so that the same call written two ways compares equal and scripted actions work in
// both modes: positional arguments are bound to their parameter names and keyword arguments sorted in the
// method's parameter order (unknown keywords after, as written). `sort('a.txt')` becomes `sort(file_name='a.txt')`,
// which prompting mode also accepts (upstream's prompting decoder drops positional arguments).
import type { AnyBfclClass } from "../apis/backend-class.js";
import { methodOf } from "../apis/class-registry.js";
import type { Call } from "../calls/call.js";
import { formatCalls } from "../calls/format.js";
import { pyJsonDumps } from "../py/format.js";
import type { PyDict, PyValue } from "../py/value.js";

export function canonicalCall(call: Call, classes: readonly AnyBfclClass[]): Call {
  const method = methodOf(classes, call.name);
  if (method === undefined || call.args.length > method.params.length) return call;
  const given = new Map<string, PyValue>();
  call.args.forEach((value, index) => given.set((method.params[index] as { name: string }).name, value));
  const extra: [string, PyValue][] = [];
  for (const [key, value] of call.kwargs) {
    if (given.has(key)) return call; // a duplicate: keep the call as written so that it fails as written
    if (method.params.some((param) => param.name === key)) given.set(key, value);
    else extra.push([key, value]);
  }
  const kwargs: [string, PyValue][] = [];
  for (const param of method.params)
    if (given.has(param.name)) kwargs.push([param.name, given.get(param.name) as PyValue]);
  return { name: call.name, args: [], kwargs: [...kwargs, ...extra] };
}

/** `[f(a=1), g()]` for canonical calls; `[]` for none (the action that ends a turn). */
export function canonicalText(calls: readonly Call[], classes: readonly AnyBfclClass[]): string {
  return formatCalls(calls.map((call) => canonicalCall(call, classes)));
}

/** JSON arguments of a tool call for a call (keyword arguments only; tuples become lists). */
export function toolArguments(call: Call): string {
  const dict: PyDict = new Map(call.kwargs);
  return pyJsonDumps(dict);
}
