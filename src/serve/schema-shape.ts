// A JSON Schema as the shape constrained decoding enforces (json-constraint.ts): structured outputs
// (structured-output.ts) and tool_choice "required" or a named function (tool-choice.ts). Pure functions; a
// schema it cannot enforce is a SchemaProblem naming the keyword (the caller answers 400 naming the field).
//
// Enforced: type (one or a list), properties, required, additionalProperties (absent or false: no other keys, as
// vLLM's default grammar backend, xgrammar, does; true or a schema: other keys allowed), items, minItems, maxItems,
// enum, const, anyOf and oneOf (as anyOf; the parent's other keywords apply to each option), local $ref into $defs
// or definitions (not recursive), minLength and maxLength of strings (in characters; an escape is one), and number
// bounds the decoder can keep: minimum 0 (no minus sign), integers at least 1 (minimum 1 or exclusiveMinimum 0),
// and bounds as wide as some 10^d - 1 (at most d digits before the point, no exponent: a value may be refused that
// the schema allows, never written that it refuses). A schema with no type, properties, enum or const is any value.
// Annotations (accepted, they constrain nothing): description, title, default, examples, format, $schema, $id,
// $comment, deprecated, readOnly, writeOnly, $defs and definitions themselves.
// Refused with the keyword named: every other keyword that constrains values (pattern, multipleOf, uniqueItems,
// prefixItems, allOf, not, if/then/else, ...), other number bounds, recursive $ref, and the schema `false`.

export type Shape =
  | { readonly kind: "any" }
  | ObjectShape
  | ArrayShape
  | StringShape
  | NumberShape
  /** Texts the value is one of, byte for byte (enum, const, booleans, null as compact JSON; guided_choice's raw texts). */
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

export interface StringShape {
  readonly kind: "string";
  /** Characters (default 0 and Infinity). */
  readonly minLength?: number;
  readonly maxLength?: number;
}

export interface NumberShape {
  readonly kind: "number";
  readonly integer: boolean;
  /** No minus sign. */
  readonly nonNegative?: boolean;
  /** Integers only: no minus sign and not 0. */
  readonly positive?: boolean;
  /** At most this many digits before the point, and no exponent. */
  readonly maxDigits?: number;
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
/** Keywords that constrain values in ways the decoder cannot enforce. */
const REFUSED = [
  "allOf",
  "not",
  "if",
  "then",
  "else",
  "pattern",
  "patternProperties",
  "multipleOf",
  "uniqueItems",
  "prefixItems",
  "additionalItems",
  "contains",
  "minContains",
  "maxContains",
  "minProperties",
  "maxProperties",
  "propertyNames",
  "dependentRequired",
  "dependentSchemas",
  "dependencies",
  "unevaluatedProperties",
  "unevaluatedItems",
  "contentSchema",
] as const;
const BOUNDS = ["minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"] as const;

type Schema = Readonly<Record<string, unknown>>;

/** Where $refs are resolved: the root schema, and the refs being resolved now (a cycle is refused). */
interface Context {
  readonly root: Schema | undefined;
  readonly resolving: readonly string[];
}

function isSchema(value: unknown): value is Schema {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

const join = (path: string, key: string): string => (path === "" ? key : `${path}.${key}`);

function union(options: readonly Shape[]): Shape {
  return options.length === 1 ? options[0]! : { kind: "union", options };
}

function objectShape(schema: Schema, path: string, context: Context): ObjectShape {
  const properties = new Map<string, Shape>();
  const declared = schema["properties"];
  if (isSchema(declared))
    for (const [name, sub] of Object.entries(declared))
      properties.set(name, shapeOf(sub, join(join(path, "properties"), name), context));
  const required = new Set(
    Array.isArray(schema["required"])
      ? schema["required"].filter((name): name is string => typeof name === "string")
      : [],
  );
  // A required key that is not declared takes any value.
  for (const name of required) if (!properties.has(name)) properties.set(name, ANY);
  const extra = schema["additionalProperties"];
  const additional =
    extra === true ? ANY : isSchema(extra) ? shapeOf(extra, join(path, "additionalProperties"), context) : undefined;
  return { kind: "object", properties, required, additional };
}

function count(schema: Schema, key: string, fallback: number): number {
  const value = schema[key];
  return typeof value === "number" && Number.isInteger(value) && value >= 0 ? value : fallback;
}

function arrayShape(schema: Schema, path: string, context: Context): ArrayShape {
  const minItems = count(schema, "minItems", 0);
  const maxItems = count(schema, "maxItems", Infinity);
  if (maxItems < minItems)
    throw new SchemaProblem(
      join(path, "maxItems"),
      `maxItems ${maxItems} is below minItems ${minItems}: no array matches`,
    );
  return {
    kind: "array",
    items: schema["items"] === undefined ? ANY : shapeOf(schema["items"], join(path, "items"), context),
    minItems,
    maxItems,
  };
}

function stringShape(schema: Schema, path: string): StringShape {
  const minLength = count(schema, "minLength", 0);
  const maxLength = count(schema, "maxLength", Infinity);
  if (maxLength < minLength)
    throw new SchemaProblem(
      join(path, "maxLength"),
      `maxLength ${maxLength} is below minLength ${minLength}: no string matches`,
    );
  return {
    kind: "string",
    ...(minLength === 0 ? {} : { minLength }),
    ...(maxLength === Infinity ? {} : { maxLength }),
  };
}

/** The most digits d (at most 15) such that every value with at most d digits before the point (and no exponent)
 * is within `limit` in absolute value: integers reach 10^d - 1, other numbers come as close to 10^d as they like. */
function digitsWithin(limit: number, inclusive: boolean, integer: boolean): number {
  const fits = (d: number): boolean => {
    const reach = integer ? 10 ** d - 1 : 10 ** d;
    return integer && !inclusive ? reach < limit : reach <= limit;
  };
  let d = 0;
  while (d < 15 && fits(d + 1)) d++;
  return d;
}

/** The bounds of a number schema as the decoder keeps them, or a SchemaProblem naming the bound it cannot keep. */
function numberShape(schema: Schema, path: string, integer: boolean): NumberShape {
  const [min, max, xmin, xmax] = BOUNDS.map((key) => {
    const value = schema[key];
    if (value !== undefined && (typeof value !== "number" || !Number.isFinite(value)))
      throw new SchemaProblem(join(path, key), `${key} must be a number`);
    return value as number | undefined;
  });
  const problem = (key: string, value: number | undefined): SchemaProblem =>
    new SchemaProblem(
      join(path, key),
      `${key} ${value} is not supported by budgetrl serve's constrained decoding: it keeps numbers non-negative (minimum 0), integers positive (minimum 1), or within bounds as wide as some 10^d - 1 (at most d digits)`,
    );
  if (min !== undefined && xmin !== undefined) throw problem("exclusiveMinimum", xmin);
  if (max !== undefined && xmax !== undefined) throw problem("exclusiveMaximum", xmax);
  let nonNegative = false;
  let positive = false;
  let digits = Infinity;
  const low = min ?? xmin;
  if (low !== undefined) {
    const key = min !== undefined ? "minimum" : "exclusiveMinimum";
    if (min === 0) nonNegative = true;
    else if (integer && (min === 1 || xmin === 0)) positive = true;
    else if (low < 0) digits = digitsWithin(-low, min !== undefined, integer);
    else throw problem(key, low);
    if (digits === 0) throw problem(key, low);
  }
  const high = max ?? xmax;
  if (high !== undefined) {
    const within = high > 0 ? digitsWithin(high, max !== undefined, integer) : 0;
    if (within === 0) throw problem(max !== undefined ? "maximum" : "exclusiveMaximum", high);
    digits = Math.min(digits, within);
  }
  return {
    kind: "number",
    integer,
    ...(nonNegative || positive ? { nonNegative: true } : {}),
    ...(positive ? { positive: true } : {}),
    ...(digits === Infinity ? {} : { maxDigits: digits }),
  };
}

function typeShape(type: string, schema: Schema, path: string, context: Context): Shape {
  switch (type) {
    case "object":
      return objectShape(schema, path, context);
    case "array":
      return arrayShape(schema, path, context);
    case "string":
      return stringShape(schema, path);
    case "integer":
      return numberShape(schema, path, true);
    case "number":
      return numberShape(schema, path, false);
    case "boolean":
      return BOOLEAN;
    case "null":
      return NULL;
    default:
      throw new SchemaProblem(join(path, "type"), `unknown type ${JSON.stringify(type)}`);
  }
}

/** The schema a local $ref points at ("#/$defs/X", "#/definitions/X", or "#" the root). */
function resolveRef(ref: unknown, path: string, context: Context): Schema | boolean {
  const at = join(path, "$ref");
  if (typeof ref !== "string" || !ref.startsWith("#"))
    throw new SchemaProblem(at, `only local $refs ("#/$defs/NAME") are supported, got ${JSON.stringify(ref)}`);
  if (context.resolving.includes(ref))
    throw new SchemaProblem(at, `${ref} refers to itself: recursive schemas are not supported`);
  let target: unknown = context.root;
  for (const part of ref
    .slice(1)
    .split("/")
    .filter((piece) => piece !== "")) {
    const key = decodeURIComponent(part).replace(/~1/g, "/").replace(/~0/g, "~");
    target = isSchema(target) ? target[key] : undefined;
  }
  if (!isSchema(target) && typeof target !== "boolean")
    throw new SchemaProblem(at, `${ref} points at no schema of this one`);
  return target;
}

function shapeOf(schema: unknown, path: string, context: Context): Shape {
  if (schema === true || schema === undefined || schema === null) return ANY;
  if (schema === false) throw new SchemaProblem(path, "the schema false matches nothing");
  if (!isSchema(schema)) throw new SchemaProblem(path, "expected a JSON Schema object");
  if ("$ref" in schema) {
    const { $ref, ...rest } = schema;
    const target = resolveRef($ref, path, context);
    const inner = { ...context, resolving: [...context.resolving, String($ref)] };
    return shapeOf(typeof target === "boolean" ? target : { ...target, ...rest }, path, inner);
  }
  for (const keyword of REFUSED)
    if (keyword in schema)
      throw new SchemaProblem(
        join(path, keyword),
        `${keyword} is not supported by budgetrl serve's constrained decoding (it cannot enforce it)`,
      );
  const alternatives = schema["anyOf"] ?? schema["oneOf"];
  if (alternatives !== undefined) {
    const key = "anyOf" in schema ? "anyOf" : "oneOf";
    if (!Array.isArray(alternatives) || alternatives.length === 0)
      throw new SchemaProblem(join(path, key), "expected a non-empty array of schemas");
    const { anyOf: _a, oneOf: _o, ...rest } = schema;
    return union(
      alternatives.map((option, i) =>
        shapeOf(isSchema(option) ? { ...rest, ...option } : option, `${join(path, key)}[${i}]`, context),
      ),
    );
  }
  if ("const" in schema) return { kind: "literals", texts: [JSON.stringify(schema["const"])] };
  if (Array.isArray(schema["enum"])) {
    if (schema["enum"].length === 0) throw new SchemaProblem(join(path, "enum"), "an empty enum matches nothing");
    return { kind: "literals", texts: [...new Set(schema["enum"].map((value) => JSON.stringify(value)))] };
  }
  const type = schema["type"];
  if (typeof type === "string") return typeShape(type, schema, path, context);
  if (Array.isArray(type) && type.length > 0)
    return union(type.map((one) => (typeof one === "string" ? typeShape(one, schema, path, context) : ANY)));
  if (isSchema(schema["properties"]) || Array.isArray(schema["required"])) return objectShape(schema, path, context);
  if (schema["items"] !== undefined) return arrayShape(schema, path, context);
  return ANY;
}

/** The shape of a JSON Schema (`path` locates it in error messages; $refs resolve against this schema). */
export function schemaShape(schema: unknown, path = ""): Shape {
  return shapeOf(schema, path, { root: isSchema(schema) ? schema : undefined, resolving: [] });
}
