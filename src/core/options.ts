// Options of envs and policies: zod field builders with uniform messages, and the one function that validates
// an options record against a schema. Values may arrive typed (library users) or as strings (the CLI's --env-opt
// and --policy-opt): numeric and boolean strings are read as numbers and booleans. Errors are ConfigErrors
// naming the option as "<owner>.<option>", e.g. "sokoban.boxes: expected an integer from 1 to 6" or
// "openai.temperature: ..."; unknown options are refused.
import { z } from "zod";
import { parseConfig } from "./config.js";
import { ConfigError } from "./errors.js";

/** One line of an options schema's help. */
export interface OptionHelp {
  readonly name: string;
  readonly description: string;
  readonly defaultValue: unknown;
}

export function numberFromText(value: unknown): unknown {
  if (typeof value !== "string") return value;
  const trimmed = value.trim();
  return trimmed !== "" && Number.isFinite(Number(trimmed)) ? Number(trimmed) : value;
}

function booleanFromText(value: unknown): unknown {
  if (typeof value !== "string") return value;
  const lowered = value.trim().toLowerCase();
  if (lowered === "true" || lowered === "1" || lowered === "yes") return true;
  if (lowered === "false" || lowered === "0" || lowered === "no") return false;
  return value;
}

/** An integer option in [min, max]. */
export function integerOption(min: number, max: number, fallback: number, description: string) {
  const error =
    max === Number.MAX_SAFE_INTEGER ? `expected an integer >= ${min}` : `expected an integer from ${min} to ${max}`;
  const field = z.number({ error }).int({ error }).min(min, { error }).max(max, { error });
  return z.preprocess(numberFromText, field).default(fallback).describe(description);
}

/** A real-valued option in [min, max]. */
export function numberOption(min: number, max: number, fallback: number, description: string) {
  const error = `expected a number from ${min} to ${max}`;
  const field = z.number({ error }).min(min, { error }).max(max, { error });
  return z.preprocess(numberFromText, field).default(fallback).describe(description);
}

export function booleanOption(fallback: boolean, description: string) {
  return z
    .preprocess(booleanFromText, z.boolean({ error: "expected true or false" }))
    .default(fallback)
    .describe(description);
}

/** One of a fixed set of strings, or null (written "none" on the command line). */
export function choiceOption<const T extends readonly [string, ...string[]]>(choices: T, description: string) {
  const error = `expected one of ${choices.join(", ")} (or none)`;
  const field = z.enum(choices, { error }).nullable();
  return z
    .preprocess((value) => (value === "none" || value === "" ? null : value), field)
    .default(null)
    .describe(description);
}

/** Validate the options record of `owner` (an env or policy name); throws ConfigError naming "<owner>.<option>".
 * Returns a frozen config. */
export function parseOptions<Schema extends z.ZodObject>(
  owner: string,
  schema: Schema,
  options: unknown,
): Readonly<z.output<Schema>> {
  if (options !== undefined && (options === null || typeof options !== "object" || Array.isArray(options))) {
    throw new ConfigError(owner, "options must be an object of option values");
  }
  const known = Object.keys(schema.shape);
  const unknown = Object.keys(options ?? {}).find((key) => !known.includes(key));
  if (unknown !== undefined)
    throw new ConfigError(`${owner}.${unknown}`, "unknown option", `${owner} options are: ${known.join(", ")}`);
  return parseConfig(schema, options ?? {}, (path) =>
    path.length > 0 ? `${owner}.${path.map(String).join(".")}` : owner,
  );
}

/** Each option of a schema with its description and default. */
export function describeOptions(schema: z.ZodObject): OptionHelp[] {
  const defaults = schema.parse({}) as Record<string, unknown>;
  return Object.entries(schema.shape).map(([name, field]) => ({
    name,
    description: (field as z.ZodType).description ?? "",
    defaultValue: defaults[name] ?? null,
  }));
}

/** Help text: one line per option, "name (default: value)  description". */
export function formatOptionsHelp(owner: string, options: readonly OptionHelp[]): string {
  const rows = options.map(
    (option) => [`${option.name}`, `default ${JSON.stringify(option.defaultValue)}`, option.description] as const,
  );
  const nameWidth = Math.max(...rows.map((row) => row[0].length));
  const defaultWidth = Math.max(...rows.map((row) => row[1].length));
  const lines = rows.map(
    ([name, fallback, description]) => `  ${name.padEnd(nameWidth)}  ${fallback.padEnd(defaultWidth)}  ${description}`,
  );
  return [`${owner} options:`, ...lines].join("\n");
}
