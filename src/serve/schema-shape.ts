// A JSON Schema as the shape constrained decoding enforces (json-constraint.ts): structured outputs
// (structured-output.ts) and tool_choice "required" or a named function (tool-choice.ts). Pure functions; a
// schema it cannot enforce is a SchemaProblem naming the keyword (the caller answers 400 naming the field).
//
// Enforced: type (one or a list); properties, required, additionalProperties (absent or false: no other keys, as
// vLLM's default grammar backend, xgrammar, does; true or a schema: other keys allowed), minProperties and
// maxProperties; items, prefixItems (and the older items array with additionalItems), minItems, maxItems; enum,
// const; anyOf and oneOf (as anyOf; the parent's other keywords apply to each option); allOf (merged into one
// schema, schema-merge.ts); $ref into $defs or definitions or the root, recursive ones too: a path follows at most
// MAX_REF_DEPTH $refs, and deeper a $ref has no value (an optional property is left out, an array stays as short
// as it may, an anyOf option is dropped; a schema with no value within the depth is refused); minLength,
// maxLength and pattern of strings (in characters; regex-syntax.ts says which patterns), and the formats email,
// uuid, date-time, date, time, uri, ipv4 and ipv6 (each as its pattern, string-formats.ts); minimum, maximum,
// exclusiveMinimum, exclusiveMaximum and (integers, or integral values of numbers) multipleOf (number-text.ts:
// every number within its bounds and finite). A schema with no type, properties, enum or const is any value.
// Annotations (accepted, they constrain nothing): description, title, default, examples, other formats, $schema,
// $id, $comment, deprecated, readOnly, writeOnly, $defs and definitions themselves.
// Refused with the keyword named: every other keyword that constrains values (not, if/then/else, uniqueItems,
// contains, patternProperties, propertyNames, dependent*, unevaluated*), a multipleOf that is not an integer, and a
// schema no value satisfies (false, an empty enum, bounds that leave nothing).
import type { StringShape } from "./json-string.js";
import type { NumberShape } from "./number-text.js";
import { count, countRange, join, numberShape, stringShape } from "./schema-leaves.js";
import { mergeSchemas, type Schema } from "./schema-merge.js";
import { SchemaProblem } from "./schema-problem.js";

export { SchemaProblem };
export type { NumberShape, StringShape };

export type Shape =
  | { readonly kind: "any" }
  | ObjectShape
  | ArrayShape
  | StringShape
  | NumberShape
  /** Texts the value is one of, byte for byte (enum, const, booleans, null as compact JSON; guided_choice's raw texts). */
  | { readonly kind: "literals"; readonly texts: readonly string[] }
  | { readonly kind: "union"; readonly options: readonly Shape[] }
  /** A declared property that can have no value (a $ref past the depth): its key is never written. */
  | { readonly kind: "never" };

export interface ObjectShape {
  readonly kind: "object";
  readonly properties: ReadonlyMap<string, Shape>;
  readonly required: ReadonlySet<string>;
  /** The shape of other keys' values; undefined: no other keys. */
  readonly additional: Shape | undefined;
  readonly minProperties: number;
  readonly maxProperties: number;
}

export interface ArrayShape {
  readonly kind: "array";
  /** The shapes of the first items (prefixItems), then `items` for the rest (undefined: no more items). */
  readonly prefix: readonly Shape[];
  readonly items: Shape | undefined;
  readonly minItems: number;
  readonly maxItems: number;
}

/** The shape of item i, or undefined when there is none. */
export function itemAt(shape: ArrayShape, i: number): Shape | undefined {
  return i < shape.prefix.length ? shape.prefix[i] : shape.items;
}

/** How many $refs one path through a schema may follow. */
export const MAX_REF_DEPTH = 12;

export const ANY: Shape = { kind: "any" };
export const NEVER: Shape = { kind: "never" };
const BOOLEAN: Shape = { kind: "literals", texts: ["true", "false"] };
const NULL: Shape = { kind: "literals", texts: ["null"] };
/** Keywords that constrain values in ways the decoder cannot enforce. */
const REFUSED = [
  "not",
  "if",
  "then",
  "else",
  "patternProperties",
  "uniqueItems",
  "contains",
  "minContains",
  "maxContains",
  "propertyNames",
  "dependentRequired",
  "dependentSchemas",
  "dependencies",
  "unevaluatedProperties",
  "unevaluatedItems",
  "contentSchema",
] as const;

/** Where $refs are resolved: the root schema, the $refs a path may still follow, and the shapes of $refs built. */
export interface Context {
  readonly root: Schema | undefined;
  readonly depth: number;
  readonly built: Map<string, Shape | undefined>;
}

export function isSchema(value: unknown): value is Schema {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

function objectOf(schema: Schema, path: string, context: Context): Shape | undefined {
  const properties = new Map<string, Shape>();
  const required = new Set(
    Array.isArray(schema["required"])
      ? schema["required"].filter((name): name is string => typeof name === "string")
      : [],
  );
  const declared = schema["properties"];
  if (isSchema(declared))
    for (const [name, sub] of Object.entries(declared)) {
      const shape = shapeOf(sub, join(join(path, "properties"), name), context);
      if (shape === undefined && required.has(name)) return undefined;
      properties.set(name, shape ?? NEVER);
    }
  // A required key that is not declared takes any value.
  for (const name of required) if (!properties.has(name)) properties.set(name, ANY);
  const extra = schema["additionalProperties"];
  const additional =
    extra === true ? ANY : isSchema(extra) ? shapeOf(extra, join(path, "additionalProperties"), context) : undefined;
  const minProperties = count(schema, "minProperties", 0);
  const maxProperties = count(schema, "maxProperties", Infinity);
  const writable = [...properties.values()].filter((shape) => shape !== NEVER).length;
  if (required.size > maxProperties || minProperties > maxProperties)
    throw new SchemaProblem(join(path, "maxProperties"), `maxProperties ${maxProperties} leaves no object`);
  if (additional === undefined && writable < minProperties)
    throw new SchemaProblem(
      join(path, "minProperties"),
      `minProperties ${minProperties} is more than the ${writable} keys an object may have here (no additionalProperties)`,
    );
  return { kind: "object", properties, required, additional, minProperties, maxProperties };
}

function arrayOf(schema: Schema, path: string, context: Context): Shape | undefined {
  const tuple = Array.isArray(schema["items"]);
  const prefixSchemas = Array.isArray(schema["prefixItems"]) ? schema["prefixItems"] : tuple ? schema["items"] : [];
  const restSchema = tuple ? schema["additionalItems"] : schema["items"];
  const prefixKey = tuple ? "items" : "prefixItems";
  const prefix: Shape[] = [];
  let cut = false;
  for (const [i, sub] of (prefixSchemas as unknown[]).entries()) {
    const shape = shapeOf(sub, `${join(path, prefixKey)}[${i}]`, context);
    if (shape === undefined) {
      cut = true;
      break;
    }
    prefix.push(shape);
  }
  const restKey = tuple ? "additionalItems" : "items";
  const items =
    cut || restSchema === false
      ? undefined
      : restSchema === undefined
        ? ANY
        : shapeOf(restSchema, join(path, restKey), context);
  const [minItems, declaredMax] = countRange(schema, path, "minItems", "maxItems", "array");
  const maxItems = items === undefined ? Math.min(declaredMax, prefix.length) : declaredMax;
  if (maxItems < minItems) {
    if (cut || restSchema !== false) return undefined;
    throw new SchemaProblem(
      join(path, "minItems"),
      `minItems ${minItems} is more than the ${prefix.length} items allowed`,
    );
  }
  return { kind: "array", prefix, items, minItems, maxItems };
}

function typeShape(type: string, schema: Schema, path: string, context: Context): Shape | undefined {
  switch (type) {
    case "object":
      return objectOf(schema, path, context);
    case "array":
      return arrayOf(schema, path, context);
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

const ANNOTATION_KEYS = new Set(["title", "description", "default", "examples", "$comment", "deprecated"]);

/** A schema with its own $ref and allOf resolved and merged in (undefined: no value satisfies it), and the context
 * its subschemas are read in (fewer $refs left). */
function flatten(schema: Schema, path: string, context: Context): { schema: Schema | undefined; context: Context } {
  let now: Schema | undefined = schema;
  let inner = context;
  if ("$ref" in schema) {
    if (inner.depth === 0) return { schema: undefined, context: inner };
    const { $ref, ...rest } = schema;
    const target = resolveRef($ref, path, inner);
    inner = { ...inner, depth: inner.depth - 1 };
    if (target === false) return { schema: undefined, context: inner };
    const resolved = flatten(target === true ? {} : target, path, inner);
    inner = resolved.context;
    now = resolved.schema === undefined ? undefined : mergeSchemas(resolved.schema, rest, path);
  }
  if (now !== undefined && "allOf" in now) {
    const { allOf, ...rest } = now;
    if (!Array.isArray(allOf) || allOf.length === 0)
      throw new SchemaProblem(join(path, "allOf"), "expected a non-empty array of schemas");
    now = rest;
    for (const [i, branch] of allOf.entries()) {
      if (branch === true) continue;
      if (!isSchema(branch)) return { schema: undefined, context: inner };
      const flat = flatten(branch, `${join(path, "allOf")}[${i}]`, inner);
      inner = flat.context.depth < inner.depth ? flat.context : inner;
      now = flat.schema === undefined ? undefined : mergeSchemas(now!, flat.schema, path);
      if (now === undefined) break;
    }
  }
  return { schema: now, context: inner };
}

/** The shape of a schema; undefined: no value satisfies it (within the $ref depth). */
export function shapeOf(schema: unknown, path: string, context: Context): Shape | undefined {
  if (schema === true || schema === undefined || schema === null) return ANY;
  if (schema === false) return undefined;
  if (!isSchema(schema)) throw new SchemaProblem(path, "expected a JSON Schema object");
  const refOnly = "$ref" in schema && Object.keys(schema).every((key) => key === "$ref" || ANNOTATION_KEYS.has(key));
  const key = refOnly ? `${String(schema["$ref"])}@${context.depth}` : undefined;
  if (key !== undefined && context.built.has(key)) return context.built.get(key);
  const flat = flatten(schema, path, context);
  const shape = flat.schema === undefined ? undefined : plainShape(flat.schema, path, flat.context);
  if (key !== undefined) context.built.set(key, shape);
  return shape;
}

function union(options: readonly (Shape | undefined)[]): Shape | undefined {
  const some = options.filter((option): option is Shape => option !== undefined);
  if (some.length === 0) return undefined;
  return some.length === 1 ? some[0]! : { kind: "union", options: some };
}

/** The shape of a schema without $ref or allOf of its own. */
function plainShape(schema: Schema, path: string, context: Context): Shape | undefined {
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
        shapeOf(isSchema(option) ? { allOf: [rest, option] } : option, `${join(path, key)}[${i}]`, context),
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
  if (isSchema(schema["properties"]) || Array.isArray(schema["required"])) return objectOf(schema, path, context);
  if (schema["items"] !== undefined || schema["prefixItems"] !== undefined) return arrayOf(schema, path, context);
  return ANY;
}

/** The shape of a JSON Schema (`path` locates it in error messages; $refs resolve against this schema). */
export function schemaShape(schema: unknown, path = ""): Shape {
  const context: Context = { root: isSchema(schema) ? schema : undefined, depth: MAX_REF_DEPTH, built: new Map() };
  const shape = shapeOf(schema, path, context);
  if (shape === undefined)
    throw new SchemaProblem(
      path,
      `no value satisfies this schema${typeof schema === "object" && schema !== null && JSON.stringify(schema).includes("$ref") ? ` within ${MAX_REF_DEPTH} nested $refs (budgetrl serve's depth limit)` : ""}`,
    );
  return shape;
}
