// The openai client options as command-line flags, generated from clientOptionsSchema by its flag table
// (CLIENT_OPTION_FLAGS: --base-url, --api-key-env, --request-concurrency, --rpm, --request-timeout, --retries,
// --retry-backoff, --retry-max-wait, --cache DIR, --no-cache), for every command that plays an openai model
// (`budgetrl eval`'s policy, `budgetrl reproduce`'s served base): each flag's description, default and validation
// are the schema's (a bad value fails as the command's flags are read, naming the flag), and the flags given become
// the typed client options (only those given: the policy fills in the rest). A resume command gives them again by the
// same table (clientOptionArgs). The rows of group "tinker" (--tinker-url, --tinker-api-key-env, --tinker-timeout,
// --tinker-deadline, --tinker-sampling-deadline: how Tinker is reached, policies/tinker-reach.ts) are the same flags
// for every command that reaches Tinker (tinkerFlagFieldsFor: `budgetrl eval`'s tinker: policy, `budgetrl train
// --backend tinker`, `budgetrl reproduce --trainer tinker`).
import { z } from "zod";
import {
  CLIENT_OPTION_FLAGS,
  clientOptionsSchema,
  parseGivenClientOptions,
  type ClientOptions,
  type GivenClientOptions,
} from "../policies/openai/options.js";

type Camel<Text extends string> = Text extends `${infer Head}-${infer Tail}`
  ? `${Head}${Capitalize<Camel<Tail>>}`
  : Text;
type AnyRow = (typeof CLIENT_OPTION_FLAGS)[number];
type Row = Exclude<AnyRow, { readonly group: "tinker" }>;
type TinkerRow = Extract<AnyRow, { readonly group: "tinker" }>;
/** The config field of a flag: --request-concurrency -> requestConcurrency. */
type FieldOf<Flag extends string> = Flag extends `--${infer Name}` ? Camel<Name> : never;

type FlagFields<Rows extends AnyRow> = {
  [R in Rows as FieldOf<R["flag"]>]: R extends { readonly switchesOff: true }
    ? z.ZodDefault<z.ZodBoolean>
    : NonNullable<ClientOptions[R["key"]]> extends number
      ? z.ZodOptional<z.ZodNumber>
      : z.ZodOptional<z.ZodString>;
};
export type ClientFlagFields = FlagFields<Row>;
export type TinkerFlagFields = FlagFields<TinkerRow>;

export type ClientFlags = {
  readonly [Key in keyof (ClientFlagFields & TinkerFlagFields)]?:
    z.output<(ClientFlagFields & TinkerFlagFields)[Key]> | undefined;
};

function fieldOf(flag: string): string {
  return flag.slice(2).replace(/-([a-z])/g, (_, letter: string) => letter.toUpperCase());
}

const defaults = clientOptionsSchema.parse({}) as Record<string, unknown>;

/** A flag's field: the schema's type, description (after `scope`, the model the flag is for) and default (in the text:
 * an unset flag leaves it to the policy), validated by the schema's own field. */
function flagField(row: AnyRow, scope: string): z.ZodType {
  const option = clientOptionsSchema.shape[row.key] as z.ZodType;
  const description = option.description ?? "";
  if ("switchesOff" in row)
    return z.boolean().default(false).describe(`${scope}: do not ${description} (on by default)`);
  const fallback = defaults[row.key];
  const text = `${scope}: ${description}${fallback === undefined ? "" : ` (default: ${String(fallback)})`}`;
  const valid = (value: unknown, context: z.RefinementCtx): void => {
    const checked = option.safeParse(value);
    if (!checked.success)
      context.addIssue({ code: "custom", message: checked.error.issues[0]?.message ?? "invalid value" });
  };
  return (typeof fallback === "number" ? z.int().superRefine(valid) : z.string().superRefine(valid))
    .optional()
    .describe(text);
}

/** The flags' fields, to extend a command's schema with; each description opens with `scope` ("openai base": the
 * study's served base). */
export function clientFlagFieldsFor(scope: string): ClientFlagFields {
  return Object.fromEntries(
    CLIENT_OPTION_FLAGS.filter((row) => !("group" in row)).map((row) => [fieldOf(row.flag), flagField(row, scope)]),
  ) as unknown as ClientFlagFields;
}

/** The flags' fields of how Tinker is reached, each description opening with `scope` ("tinker trainer"). */
export function tinkerFlagFieldsFor(scope: string): TinkerFlagFields {
  return Object.fromEntries(
    CLIENT_OPTION_FLAGS.filter((row) => "group" in row).map((row) => [fieldOf(row.flag), flagField(row, scope)]),
  ) as unknown as TinkerFlagFields;
}

/** The flags' fields of a tinker: policy's service (`budgetrl eval --policy tinker:...`). */
export const tinkerFlagFields = tinkerFlagFieldsFor("tinker");

/** The flags' fields of an openai policy (`budgetrl eval --policy openai:MODEL`). */
export const clientFlagFields = clientFlagFieldsFor("openai");

/** The fields' keys (what `--resume` keeps: they are not stored with the run). */
export const CLIENT_FLAG_KEYS = Object.keys(clientFlagFields) as (keyof ClientFlagFields)[];

/** The tinker fields' keys (kept on `--resume` too). */
export const TINKER_FLAG_KEYS = Object.keys(tinkerFlagFields) as (keyof TinkerFlagFields)[];

/** The client options the flags give (undefined when none is given); the tinker rows only with `tinker`. */
export function clientOptionsOf(flags: ClientFlags, tinker = false): GivenClientOptions | undefined {
  const given: Record<string, unknown> = {};
  for (const row of CLIENT_OPTION_FLAGS) {
    if ("group" in row && !tinker) continue;
    const value = (flags as Record<string, unknown>)[fieldOf(row.flag)];
    if ("switchesOff" in row) {
      if (value === true) given[row.key] = false;
    } else if (value !== undefined) given[row.key] = value;
  }
  return Object.keys(given).length === 0 ? undefined : parseGivenClientOptions(given);
}
