// Commands declared once: a zod object schema with a description per field is the single source of the TS
// config type, the command-line flags (camelCase field -> --kebab-case flag, or the field's `meta({ flag })`),
// the validation (before any work starts, errors name the flag) and the help text. Parsed configs are frozen.
// List fields that also take one comma-separated value (`meta({ list: true })`, e.g. --budget 25%,50%) are
// single flags; other array fields repeat (--env-opt a=1 --env-opt b=2). A command also learns which flags were
// given (so `--resume` can report the ones it ignores) and, when it is `interruptible`, gets the AbortSignal of
// Ctrl-C / SIGTERM (interrupt.ts, installed by run-cli.ts).
import { z } from "zod";
import { parseConfig } from "../core/config.js";
import { ConfigError } from "../core/errors.js";

export interface CliIo {
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
  /** True when stderr is a terminal (progress bars redraw in place). */
  readonly interactive: boolean;
}

/** What a command knows about its invocation besides its config. */
export interface CommandContext {
  /** Fields given on the command line (not defaulted), each with the flag as written: tasks -> "--tasks". */
  readonly given: ReadonlyMap<string, string>;
  /** Aborted by the first Ctrl-C or SIGTERM (interruptible commands; never aborted otherwise). */
  readonly signal: AbortSignal;
}

export interface CommandDefinition<Schema extends z.ZodObject = z.ZodObject> {
  /** Words after `budgetrl`, e.g. "eval" or "bfcl run". */
  readonly name: string;
  readonly summary: string;
  readonly description?: string;
  /** Fields filled from positional arguments, in order. */
  readonly positionals?: readonly string[];
  readonly schema: Schema;
  readonly examples?: readonly string[];
  /** A long command: Ctrl-C and SIGTERM abort `context.signal` (it stops, keeps what finished, exits 130/143). */
  readonly interruptible?: boolean;
  run(config: Readonly<z.output<Schema>>, io: CliIo, context: CommandContext): Promise<number>;
}

export function defineCommand<Schema extends z.ZodObject>(
  definition: CommandDefinition<Schema>,
): CommandDefinition<Schema> {
  return definition;
}

interface FieldInfo {
  readonly key: string;
  readonly flag: string;
  readonly type: string;
  readonly description: string;
  readonly defaultValue: unknown;
  readonly values?: readonly unknown[];
  readonly required: boolean;
}

const kebab = (key: string): string => key.replace(/[A-Z]/g, (char) => `-${char.toLowerCase()}`);

interface PropertySchema {
  type?: string;
  description?: string;
  default?: unknown;
  enum?: unknown[];
  items?: { type?: string };
  anyOf?: PropertySchema[];
  flag?: string;
  list?: boolean;
}

function fieldType(property: PropertySchema): string {
  // A comma-separated list field takes one text value on the command line.
  if (property.list === true || property.anyOf?.some((branch) => branch.type === "string") === true) return "string";
  if (property.type === "array") return `${property.items?.type ?? "string"}[]`;
  return property.type ?? "string";
}

function describeFields(schema: z.ZodObject): FieldInfo[] {
  const json = z.toJSONSchema(schema, { io: "input", unrepresentable: "any" }) as {
    properties?: Record<string, PropertySchema>;
    required?: string[];
  };
  const required = new Set(json.required ?? []);
  return Object.entries(json.properties ?? {}).map(([key, property]) => ({
    key,
    flag: `--${property.flag ?? kebab(key)}`,
    type: fieldType(property),
    description: property.description ?? "",
    defaultValue:
      Array.isArray(property.default) && property.list === true ? property.default.join(",") : property.default,
    ...(property.enum === undefined ? {} : { values: property.enum }),
    required: required.has(key) && property.default === undefined,
  }));
}

function coerce(field: FieldInfo, text: string): unknown {
  if (field.type === "integer" || field.type === "number") {
    const value = Number(text);
    if (text.trim() === "" || !Number.isFinite(value))
      throw new ConfigError(field.flag, `expected a number, got "${text}"`);
    return value;
  }
  if (field.type === "boolean") {
    if (text === "true" || text === "1") return true;
    if (text === "false" || text === "0") return false;
    throw new ConfigError(field.flag, `expected true or false, got "${text}"`);
  }
  return text;
}

function closest(word: string, candidates: readonly string[]): string | undefined {
  const distance = (a: string, b: string): number => {
    const row = Array.from({ length: b.length + 1 }, (_, i) => i);
    for (let i = 1; i <= a.length; i++) {
      let previous = row[0] as number;
      row[0] = i;
      for (let j = 1; j <= b.length; j++) {
        const current = row[j] as number;
        row[j] = Math.min(
          (row[j] as number) + 1,
          (row[j - 1] as number) + 1,
          previous + (a[i - 1] === b[j - 1] ? 0 : 1),
        );
        previous = current;
      }
    }
    return row[b.length] as number;
  };
  const ranked = candidates
    .map((candidate) => [candidate, distance(word, candidate)] as const)
    .sort((x, y) => x[1] - y[1]);
  const best = ranked[0];
  return best !== undefined && best[1] <= Math.max(2, Math.floor(word.length / 3)) ? best[0] : undefined;
}

/** The config fields whose CLI field has another name: policyOptions.temperature is given as --policy-opt. */
const CLI_KEYS: Readonly<Record<string, string>> = {
  policyOptions: "policyOpt",
  envOptions: "envOpt",
  templateOptions: "templateOpt",
};

/** A ConfigError named by a config field (policy, policyOptions.temperature: what a library call names) named by
 * the command's flag instead (--policy, --policy-opt temperature), when the command has that flag. */
export function namedByFlag(command: CommandDefinition, error: ConfigError): ConfigError {
  if (error.field.startsWith("-")) return error;
  const [head = "", ...rest] = error.field.split(".");
  // A path inside another field (base.options.temperature) is left as it is: its flag may be another field's.
  if (rest.length > 0 && CLI_KEYS[head] === undefined) return error;
  const key = CLI_KEYS[head] ?? head;
  const flag = describeFields(command.schema).find((field) => field.key === key)?.flag;
  return flag === undefined ? error : new ConfigError([flag, ...rest].join(" "), error.detail, error.hint);
}

/** Parse argv (after the command words) into a validated, frozen config. Throws ConfigError naming the flag. */
export function parseCommandLine<Schema extends z.ZodObject>(
  command: CommandDefinition<Schema>,
  argv: readonly string[],
): Readonly<z.output<Schema>> {
  return readCommandLine(command, argv).config;
}

/** The config of a command line and the fields it gave (with their flags as written). */
export function readCommandLine<Schema extends z.ZodObject>(
  command: CommandDefinition<Schema>,
  argv: readonly string[],
): { readonly config: Readonly<z.output<Schema>>; readonly given: ReadonlyMap<string, string> } {
  const fields = describeFields(command.schema);
  const byFlag = new Map(fields.map((field) => [field.flag, field]));
  const raw: Record<string, unknown> = {};
  const given = new Map<string, string>();
  const positionals: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (arg === "--") {
      positionals.push(...argv.slice(i + 1));
      break;
    }
    if (!arg.startsWith("--")) {
      positionals.push(arg);
      continue;
    }
    const eq = arg.indexOf("=");
    let flag = eq < 0 ? arg : arg.slice(0, eq);
    let inline: string | undefined = eq < 0 ? undefined : arg.slice(eq + 1);
    let field = byFlag.get(flag);
    if (field === undefined && flag.startsWith("--no-")) {
      const positive = byFlag.get(`--${flag.slice(5)}`);
      if (positive?.type === "boolean" && inline === undefined) {
        raw[positive.key] = false;
        given.set(positive.key, flag);
        continue;
      }
    }
    if (field === undefined) {
      const suggestion = closest(flag, [...byFlag.keys()]);
      throw new ConfigError(
        flag,
        "unknown option",
        suggestion === undefined ? `see \`budgetrl ${command.name} --help\`` : `did you mean ${suggestion}?`,
      );
    }
    flag = field.flag;
    given.set(field.key, flag);
    if (field.type === "boolean" && inline === undefined) {
      raw[field.key] = true;
      continue;
    }
    if (inline === undefined) {
      const next = argv[i + 1];
      if (next === undefined || (next.startsWith("--") && next.length > 2))
        throw new ConfigError(flag, "expects a value");
      inline = next;
      i++;
    }
    if (field.type.endsWith("[]")) raw[field.key] = [...((raw[field.key] as unknown[] | undefined) ?? []), inline];
    else if (field.key in raw) throw new ConfigError(flag, "given more than once");
    else raw[field.key] = coerce(field, inline);
  }
  const slots = command.positionals ?? [];
  if (positionals.length > slots.length)
    throw new ConfigError(
      positionals[slots.length] as string,
      `unexpected argument`,
      `usage: budgetrl ${command.name} ${usageLine(command, fields)}`,
    );
  positionals.forEach((value, index) => {
    const key = slots[index] as string;
    const field = fields.find((candidate) => candidate.key === key);
    raw[key] = field === undefined ? value : coerce(field, value);
    given.set(key, key.toUpperCase());
  });
  const flagOf = new Map(fields.map((field) => [field.key, field.flag]));
  const config = parseConfig(command.schema, raw, (path) => {
    const key = String(path[0] ?? "");
    return slots.includes(key) ? key.toUpperCase() : (flagOf.get(key) ?? `--${kebab(key)}`);
  }) as Readonly<z.output<Schema>>;
  return { config, given };
}

function usageLine(command: CommandDefinition, fields: readonly FieldInfo[]): string {
  const slots = (command.positionals ?? []).map((key) => {
    const field = fields.find((candidate) => candidate.key === key);
    return field?.required === true ? key.toUpperCase() : `[${key.toUpperCase()}]`;
  });
  return [...slots, "[options]"].join(" ");
}

/** Full help for a command, generated from its schema. */
export function commandHelp(command: CommandDefinition): string {
  const fields = describeFields(command.schema);
  const positional = new Set(command.positionals ?? []);
  const lines = [`Usage: budgetrl ${command.name} ${usageLine(command, fields)}`, "", command.summary];
  if (command.description !== undefined) lines.push("", command.description);
  const args = fields.filter((field) => positional.has(field.key));
  if (args.length > 0) {
    lines.push("", "Arguments:");
    for (const field of args) lines.push(`  ${field.key.toUpperCase().padEnd(24)} ${field.description}`);
  }
  lines.push("", "Options:");
  for (const field of fields.filter((candidate) => !positional.has(candidate.key))) {
    const value =
      field.type === "boolean"
        ? ""
        : field.values !== undefined
          ? ` <${field.values.join("|")}>`
          : ` <${field.type === "integer" ? "n" : field.type.endsWith("[]") ? "value" : field.type === "number" ? "x" : "text"}>`;
    const extras: string[] = [];
    if (field.required) extras.push("required");
    if (field.defaultValue === true) extras.push(`on by default; --no-${field.flag.slice(2)} turns it off`);
    else if (
      field.defaultValue !== undefined &&
      !(Array.isArray(field.defaultValue) && field.defaultValue.length === 0) &&
      field.defaultValue !== false
    )
      extras.push(`default: ${String(field.defaultValue)}`);
    if (field.type.endsWith("[]")) extras.push("repeatable");
    const left = `  ${field.flag}${value}`;
    lines.push(`${left.padEnd(26)} ${field.description}${extras.length > 0 ? ` (${extras.join("; ")})` : ""}`);
  }
  lines.push(`  ${"--help".padEnd(24)} show this help`);
  if (command.examples !== undefined && command.examples.length > 0)
    lines.push("", "Examples:", ...command.examples.map((example) => `  ${example}`));
  return lines.join("\n");
}
