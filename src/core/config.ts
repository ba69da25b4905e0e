// Configs: the one function that validates a config against its zod schema (errors name the field, before any
// work starts; the result is frozen), and the fields several configs share. Budget lists are parsed here, once,
// into BudgetSpec values that travel unchanged to the rollouts and the tables; stored configs hold their labels
// again (`encodeConfig`), so a stored config reads back to the same values.
//   budgets  "25%,50%" or ["25%", "50%"]  <->  BudgetSpec[]        (flag: --budget)
//   ks       "1,2,4"   or [1, 2, 4]        <->  number[]            (flag: --k)
import { z } from "zod";
import { isBudgetProblem, readBudgetList, readBudgetSpec, type BudgetSpec } from "./budget.js";
import { ConfigError } from "./errors.js";

/** How an issue's path is named in the error: "budgets", "sokoban.boxes", "--budget", ... */
export type FieldNamer = (path: readonly PropertyKey[]) => string;

const dotted: FieldNamer = (path) => path.map(String).join(".") || "config";

function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let value = input;
  for (const key of path) {
    if (value === null || typeof value !== "object") return undefined;
    value = (value as Record<PropertyKey, unknown>)[key];
  }
  return value;
}

/** Validate `input` against `schema`; throws ConfigError naming the first bad field. Returns a frozen config. */
export function parseConfig<Schema extends z.ZodType>(
  schema: Schema,
  input: unknown,
  name: FieldNamer = dotted,
): Readonly<z.output<Schema>> {
  const parsed = schema.safeParse(input);
  if (parsed.success) return Object.freeze(parsed.data) as Readonly<z.output<Schema>>;
  const issue = parsed.error.issues[0] as z.core.$ZodIssue;
  const missing = issue.code === "invalid_type" && valueAt(input, issue.path) === undefined;
  // A field a strict object does not read is named by its own path ("backend.baseModel").
  const path =
    issue.code === "unrecognized_keys" && issue.keys[0] !== undefined ? [...issue.path, issue.keys[0]] : issue.path;
  throw new ConfigError(name(path), missing ? "is required" : issue.message);
}

/** A config in its stored (JSON) form: codec fields back to what a user writes (budget labels, ...). */
export function encodeConfig<Schema extends z.ZodType>(schema: Schema, config: z.output<Schema>): z.input<Schema> {
  return z.encode(schema, config);
}

/** A budget as a library user may hand it over: its text, or a spec from parseBudgetSpec (read by its label). */
const budgetItem = z.union([z.string(), z.object({ label: z.string() }).transform((spec) => spec.label)]);

/** A list of turn budgets: "25%,50%", ["25%", "50%"] or BudgetSpec values, decoded to BudgetSpec values (duplicates refused). */
export function budgetListField() {
  return z
    .codec(z.union([z.string(), z.array(budgetItem).readonly()]), z.custom<readonly BudgetSpec[]>(), {
      decode: (input, context) => {
        const read = readBudgetList(input);
        if (!isBudgetProblem(read)) return read;
        context.issues.push({
          code: "custom",
          message: read.hint === undefined ? read.problem : `${read.problem} (${read.hint})`,
          input,
        });
        return z.NEVER;
      },
      encode: (specs) => specs.map((spec) => spec.label),
    })
    .meta({ list: true });
}

/** One turn budget: "8", "25%" or a BudgetSpec, decoded to a BudgetSpec. */
export function budgetField() {
  return z.codec(budgetItem, z.custom<BudgetSpec>(), {
    decode: (input, context) => {
      const read = readBudgetSpec(input);
      if (!isBudgetProblem(read)) return read;
      context.issues.push({
        code: "custom",
        message: read.hint === undefined ? read.problem : `${read.problem} (${read.hint})`,
        input,
      });
      return z.NEVER;
    },
    encode: (spec) => spec.label,
  });
}

/** A list of choices from `values`: "announced,hidden" or ["announced", "hidden"] (each listed once, at least one). */
export function choiceListField<const Values extends readonly [string, ...string[]]>(values: Values) {
  return z
    .codec(z.union([z.string(), z.array(z.string()).readonly()]), z.custom<readonly Values[number][]>(), {
      decode: (input, context) => {
        const items = (typeof input === "string" ? input.split(",") : input)
          .map((part) => part.trim())
          .filter((part) => part !== "");
        const unknown = items.find((item) => !(values as readonly string[]).includes(item));
        if (items.length === 0 || unknown !== undefined) {
          context.issues.push({
            code: "custom",
            message: `expected one or more of ${values.join(", ")} separated by commas, got "${String(input)}"`,
            input,
          });
          return z.NEVER;
        }
        if (new Set(items).size !== items.length) {
          context.issues.push({ code: "custom", message: "a value is listed twice", input });
          return z.NEVER;
        }
        return items as Values[number][];
      },
      encode: (items) => [...items],
    })
    .meta({ list: true });
}

/** A list of positive integers: "1,2,4" or [1, 2, 4] (each listed once). */
export function integerListField() {
  return z
    .codec(z.union([z.string(), z.array(z.number()).readonly()]), z.custom<readonly number[]>(), {
      decode: (input, context) => {
        const values =
          typeof input === "string"
            ? input
                .split(",")
                .filter((part) => part.trim() !== "")
                .map((part) => Number(part.trim()))
            : input;
        if (values.length === 0 || values.some((value) => !Number.isInteger(value) || value < 1)) {
          context.issues.push({
            code: "custom",
            message: `expected positive integers separated by commas, got "${String(input)}"`,
            input,
          });
          return z.NEVER;
        }
        if (new Set(values).size !== values.length) {
          context.issues.push({ code: "custom", message: "a value is listed twice", input });
          return z.NEVER;
        }
        return values;
      },
      encode: (values) => [...values],
    })
    .meta({ list: true });
}
