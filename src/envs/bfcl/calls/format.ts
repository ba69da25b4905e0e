// Calls back to Python source text: `name(arg, key=value)` with every value in repr form. parse(format(c))
// gives back c, so stored and displayed calls are exact.
import { pyRepr } from "../py/format.js";
import type { Call } from "./call.js";

export function formatCall(call: Call): string {
  const parts = [...call.args.map(pyRepr), ...call.kwargs.map(([key, value]) => `${key}=${pyRepr(value)}`)];
  return `${call.name}(${parts.join(", ")})`;
}

export function formatCalls(calls: readonly Call[]): string {
  return `[${calls.map(formatCall).join(", ")}]`;
}
