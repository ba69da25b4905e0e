// KEY=VALUE flags (--env-opt, --model, --template-opt) into a record; numbers and booleans stay strings here and
// are read by the schema that owns the keys, which names the key in its errors (template options, whose names no
// schema knows, are read as JSON where they are JSON). Model overrides are checked here already, so that their
// errors name the flag as written (--model KEY).
import { ConfigError } from "../core/errors.js";
import type { Json } from "../core/json.js";
import { modelConfigProblem } from "../nn/config.js";

export function keyValues(pairs: readonly string[], flag: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const pair of pairs) {
    const eq = pair.indexOf("=");
    if (eq <= 0) throw new ConfigError(flag, `expected KEY=VALUE, got "${pair}"`);
    out[pair.slice(0, eq).trim()] = pair.slice(eq + 1).trim();
  }
  return out;
}

/** KEY=NUMBER pairs (model config overrides). */
export function keyNumbers(pairs: readonly string[], flag: string): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [key, value] of Object.entries(keyValues(pairs, flag))) {
    const number = Number(value);
    if (value === "" || !Number.isFinite(number))
      throw new ConfigError(`${flag} ${key}`, `expected a number, got "${value}"`);
    out[key] = number;
  }
  return out;
}

/** KEY=VALUE pairs whose values are JSON where they parse as JSON (false, 3, "x", [1]) and text otherwise
 * (chat-template variables, read by the schema that owns them). */
export function keyJsonValues(pairs: readonly string[], flag: string): Record<string, Json> {
  const out: Record<string, Json> = {};
  for (const [key, value] of Object.entries(keyValues(pairs, flag))) {
    try {
      out[key] = JSON.parse(value) as Json;
    } catch {
      out[key] = value;
    }
  }
  return out;
}

/** --model KEY=NUMBER pairs: numbers, for keys of the model config, with valid values. */
export function modelOverrides(pairs: readonly string[], flag = "--model"): Record<string, number> {
  const overrides = keyNumbers(pairs, flag);
  const problem = modelConfigProblem(overrides);
  if (problem !== undefined)
    throw new ConfigError(problem.key === "" ? flag : `${flag} ${problem.key}`, problem.reason);
  return overrides;
}
