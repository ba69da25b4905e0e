// A JSON Schema as the shape constrained decoding enforces (json-constraint.ts), for tool_choice "required" and a
// named function (tool-choice.ts). Pure functions; an unsupported schema is a SchemaProblem (the caller answers
// 400 naming the field).
//
// Enforced: type (one or a list), properties, required, additionalProperties (absent or false: no other keys, as
// vLLM's default grammar backend, xgrammar, does in its strict mode; true or a schema: other keys allowed),
// items, minItems, maxItems, enum, const, anyOf and oneOf (as anyOf; the parent's other keywords apply to each
// option). A schema with no type, properties, enum or const is any JSON value.
// Not enforced (accepted, the value need not satisfy them): string and number bounds and formats (minLength,
// maxLength, pattern, format, minimum, maximum, multipleOf, ...), uniqueItems, prefixItems, annotations
// (description, title, default, examples).
// Refused: $ref, allOf, not, if/then/else, and the schema `false` (nothing matches it).

export type Shape =
  | { readonly kind: "any" }
  | ObjectShape
  | ArrayShape
  | { readonly kind: "string" }
  | { readonly kind: "number"; readonly integer: boolean }
  /** JSON texts, compact (enum, const, booleans, null): the value is one of them, byte for byte. */
  | { readonly kind: "literals"; readonly texts: readonly string[] }
  | { readonly kind: "union"; readonly options: readonly Shape[] };

export interface ObjectShape {
  readonly kind: "object";
  readonly properties: ReadonlyMap<string, Shape>;
  readonly required: ReadonlySet<string>;
  /** The shape of other keys' values; undefined: no other keys. */
  readonly additional: Shape | undefined;
}

export interface ArrayShape {
  readonly kind: "array";
  readonly items: Shape;
  readonly minItems: number;
  readonly maxItems: number;
}

/** A schema the constraint cannot enforce, and where (a path under the schema, e.g. "properties.a"). */
export class SchemaProblem extends Error {
  readonly path: string;
  constructor(path: string, message: string) {
    super(message);
    this.name = "SchemaProblem";
    this.path = path;
  }
}

export const ANY: Shape = { kind: "any" };
const BOOLEAN: Shape = { kind: "literals", texts: ["true", "false"] };
const NULL: Shape = { kind: "literals", texts: ["null"] };
const REFUSED = ["$ref", "allOf", "not", "if", "then", "else"] as const;

type Schema = Readonly<Record<string, unknown>>;

function isSchema(value: unknown): value is Schema {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

const join = (path: string, key: string): string => (path === "" ? key : `${path}.${key}`);

function union(options: readonly Shape[]): Shape {
  return options.length === 1 ? options[0]! : { kind: "union", options };
}

function objectShape(schema: Schema, path: string): ObjectShape {
  const properties = new Map<string, Shape>();
  const declared = schema["properties"];
  if (isSchema(declared))
    for (const [name, sub] of Object.entries(declared))
      properties.set(name, schemaShape(sub, join(join(path, "properties"), name)));
  const required = new Set(
    Array.isArray(schema["required"])
      ? schema["required"].filter((name): name is string => typeof name === "string")
      : [],
  );
  // A required key that is not declared takes any value.
  for (const name of required) if (!properties.has(name)) properties.set(name, ANY);
  const extra = schema["additionalProperties"];
  const additional =
    extra === true ? ANY : isSchema(extra) ? schemaShape(extra, join(path, "additionalProperties")) : undefined;
  return { kind: "object", properties, required, additional };
}

function arrayShape(schema: Schema, path: string): ArrayShape {
  const count = (key: string, fallback: number): number => {
    const value = schema[key];
    return typeof value === "number" && Number.isInteger(value) && value >= 0 ? value : fallback;
  };
  const minItems = count("minItems", 0);
  const maxItems = count("maxItems", Infinity);
  if (maxItems < minItems)
    throw new SchemaProblem(
      join(path, "maxItems"),
      `maxItems ${maxItems} is below minItems ${minItems}: no array matches`,
    );
  return {
    kind: "array",
    items: schema["items"] === undefined ? ANY : schemaShape(schema["items"], join(path, "items")),
    minItems,
    maxItems,
  };
}

function typeShape(type: string, schema: Schema, path: string): Shape {
  switch (type) {
    case "object":
      return objectShape(schema, path);
    case "array":
      return arrayShape(schema, path);
    case "string":
      return { kind: "string" };
    case "integer":
      return { kind: "number", integer: true };
    case "number":
      return { kind: "number", integer: false };
    case "boolean":
      return BOOLEAN;
    case "null":
      return NULL;
    default:
      throw new SchemaProblem(join(path, "type"), `unknown type ${JSON.stringify(type)}`);
  }
}

/** The shape of a JSON Schema (`path` locates it in error messages). */
export function schemaShape(schema: unknown, path = ""): Shape {
  if (schema === true || schema === undefined || schema === null) return ANY;
  if (schema === false) throw new SchemaProblem(path, "the schema false matches nothing");
  if (!isSchema(schema)) throw new SchemaProblem(path, "expected a JSON Schema object");
  for (const keyword of REFUSED)
    if (keyword in schema)
      throw new SchemaProblem(
        join(path, keyword),
        `${keyword} is not supported by budgetrl serve's constrained decoding`,
      );
  const alternatives = schema["anyOf"] ?? schema["oneOf"];
  if (alternatives !== undefined) {
    const key = "anyOf" in schema ? "anyOf" : "oneOf";
    if (!Array.isArray(alternatives) || alternatives.length === 0)
      throw new SchemaProblem(join(path, key), "expected a non-empty array of schemas");
    const { anyOf: _a, oneOf: _o, ...rest } = schema;
    return union(
      alternatives.map((option, i) =>
        schemaShape(isSchema(option) ? { ...rest, ...option } : option, `${join(path, key)}[${i}]`),
      ),
    );
  }
  if ("const" in schema) return { kind: "literals", texts: [JSON.stringify(schema["const"])] };
  if (Array.isArray(schema["enum"])) {
    if (schema["enum"].length === 0) throw new SchemaProblem(join(path, "enum"), "an empty enum matches nothing");
    return { kind: "literals", texts: [...new Set(schema["enum"].map((value) => JSON.stringify(value)))] };
  }
  const type = schema["type"];
  if (typeof type === "string") return typeShape(type, schema, path);
  if (Array.isArray(type) && type.length > 0)
    return union(type.map((one) => (typeof one === "string" ? typeShape(one, schema, path) : ANY)));
  if (isSchema(schema["properties"]) || Array.isArray(schema["required"])) return objectShape(schema, path);
  if (schema["items"] !== undefined) return arrayShape(schema, path);
  return ANY;
}
