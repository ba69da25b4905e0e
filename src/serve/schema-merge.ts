// allOf as one schema (schema-shape.ts): two JSON Schemas merged keyword by keyword into one that accepts what
// both accept, for the keywords constrained decoding enforces. Pure; `undefined` is "no value satisfies both"
// (disjoint types, an empty enum intersection, a required key the other forbids), a SchemaProblem a combination
// it cannot merge (enum or const beside other constraints, a multipleOf that is not an integer).
//
//   type                        intersected (integer within number)
//   properties, required        united; a key both declare gets {allOf: [both]}; a key one declares and the other
//                               forbids (its additionalProperties false) is forbidden (false)
//   additionalProperties        false if either is; both schemas: {allOf: [both]}
//   items, prefixItems          {allOf} per position
//   min*, max*, exclusive*      the tighter
//   pattern, format             both kept (a string matches every pattern and format: their automata intersect)
//   multipleOf                  integers: their least common multiple
//   enum, const                 values both allow (alone or with type only)
//   anyOf, oneOf                every pair of options merged (one list from each side)
// Annotations are kept from the first schema.
import { SchemaProblem } from "./schema-problem.js";

export type Schema = Readonly<Record<string, unknown>>;

const isSchema = (value: unknown): value is Schema =>
  value !== null && typeof value === "object" && !Array.isArray(value);

const HIGHER = ["minLength", "minItems", "minProperties", "minimum", "exclusiveMinimum"];
const LOWER = ["maxLength", "maxItems", "maxProperties", "maximum", "exclusiveMaximum"];
const LISTED = ["pattern", "format"];
const VALUE_KEYS = ["enum", "const"];
const ANNOTATIONS = new Set([
  "title",
  "description",
  "default",
  "examples",
  "$comment",
  "deprecated",
  "readOnly",
  "writeOnly",
  "$schema",
  "$id",
  "$defs",
  "definitions",
]);

const both = (a: unknown, b: unknown): unknown => (a === undefined ? b : b === undefined ? a : { allOf: [a, b] });
const asList = (value: unknown): unknown[] => (value === undefined ? [] : Array.isArray(value) ? value : [value]);

function types(value: unknown): string[] | undefined {
  if (value === undefined) return undefined;
  return asList(value).filter((one): one is string => typeof one === "string");
}

function mergeTypes(a: unknown, b: unknown): string[] | undefined | false {
  const x = types(a);
  const y = types(b);
  if (x === undefined) return y;
  if (y === undefined) return x;
  const out = new Set<string>();
  for (const t of x)
    for (const u of y) {
      if (t === u) out.add(t);
      else if ((t === "integer" && u === "number") || (t === "number" && u === "integer")) out.add("integer");
    }
  return out.size === 0 ? false : [...out];
}

const gcd = (a: bigint, b: bigint): bigint => (b === 0n ? a : gcd(b, a % b));

function mergeMultiple(a: unknown, b: unknown, path: string): number | undefined {
  if (a === undefined || b === undefined) return (a ?? b) as number | undefined;
  if (!Number.isSafeInteger(a) || !Number.isSafeInteger(b))
    throw new SchemaProblem(`${path}.multipleOf`, "allOf of multipleOf values that are not integers is not supported");
  const x = BigInt(a as number);
  const y = BigInt(b as number);
  return Number((x / gcd(x, y)) * y);
}

/** The values of an enum or const, as JSON texts. */
function allowedValues(schema: Schema): string[] | undefined {
  if ("const" in schema) return [JSON.stringify(schema["const"])];
  return Array.isArray(schema["enum"]) ? schema["enum"].map((value) => JSON.stringify(value)) : undefined;
}

/** True when the schema constrains nothing but its type (and annotations). */
const typeOnly = (schema: Schema): boolean =>
  Object.keys(schema).every((key) => key === "type" || ANNOTATIONS.has(key));

function mergeValues(a: Schema, b: Schema, type: string[] | undefined, path: string): string[] | undefined {
  const x = allowedValues(a);
  const y = allowedValues(b);
  if (x === undefined && y === undefined) return undefined;
  if (x !== undefined && y !== undefined) return x.filter((value) => y.includes(value));
  const other = x === undefined ? a : b;
  const values = (x ?? y)!;
  const rest = Object.fromEntries(Object.entries(other).filter(([key]) => !VALUE_KEYS.includes(key)));
  if (!typeOnly(rest))
    throw new SchemaProblem(`${path}.allOf`, "allOf of an enum or const with other constraints is not supported");
  if (type === undefined) return values;
  const typeOf = (text: string): string => {
    const value = JSON.parse(text) as unknown;
    if (value === null) return "null";
    if (Array.isArray(value)) return "array";
    if (typeof value === "number") return Number.isInteger(value) ? "integer" : "number";
    return typeof value;
  };
  return values.filter((text) => {
    const t = typeOf(text);
    return type.includes(t) || (t === "integer" && type.includes("number"));
  });
}

function mergeProperties(a: Schema, b: Schema): { properties?: Schema; additionalProperties?: unknown } {
  const pa = isSchema(a["properties"]) ? a["properties"] : {};
  const pb = isSchema(b["properties"]) ? b["properties"] : {};
  const extraA = a["additionalProperties"];
  const extraB = b["additionalProperties"];
  const names = [...new Set([...Object.keys(pa), ...Object.keys(pb)])];
  const properties: Record<string, unknown> = {};
  for (const name of names) {
    const inA = name in pa ? pa[name] : extraA === false ? false : extraA === true ? undefined : extraA;
    const inB = name in pb ? pb[name] : extraB === false ? false : extraB === true ? undefined : extraB;
    properties[name] = inA === false || inB === false ? false : (both(inA, inB) ?? {});
  }
  const additional = extraA === false || extraB === false ? false : both(extraA, extraB);
  return {
    ...(names.length === 0 ? {} : { properties }),
    ...(additional === undefined ? {} : { additionalProperties: additional }),
  };
}

function mergeItems(a: Schema, b: Schema): Record<string, unknown> {
  const prefixA = asList(a["prefixItems"]);
  const prefixB = asList(b["prefixItems"]);
  const at = (prefix: unknown[], items: unknown, i: number): unknown => (i < prefix.length ? prefix[i] : items);
  const length = Math.max(prefixA.length, prefixB.length);
  const prefix = Array.from({ length }, (_, i) => both(at(prefixA, a["items"], i), at(prefixB, b["items"], i)) ?? {});
  const items = a["items"] === false || b["items"] === false ? false : both(a["items"], b["items"]);
  return { ...(length === 0 ? {} : { prefixItems: prefix }), ...(items === undefined ? {} : { items }) };
}

function bound(a: unknown, b: unknown, pick: (x: number, y: number) => number): unknown {
  if (typeof a === "number" && typeof b === "number") return pick(a, b);
  return a ?? b;
}

function mergeOptions(a: Schema, b: Schema, path: string): unknown[] | undefined {
  const x = (a["anyOf"] ?? a["oneOf"]) as unknown[] | undefined;
  const y = (b["anyOf"] ?? b["oneOf"]) as unknown[] | undefined;
  if (x === undefined || y === undefined) return x ?? y;
  if (x.length * y.length > 256) throw new SchemaProblem(`${path}.allOf`, "allOf of anyOfs with too many options");
  return x.flatMap((one) => y.map((other) => ({ allOf: [one, other] })));
}

/** One schema accepting what both do (their $refs and allOfs already resolved by the caller), or undefined: none. */
export function mergeSchemas(a: Schema, b: Schema, path: string): Schema | undefined {
  const type = mergeTypes(a["type"], b["type"]);
  if (type === false) return undefined;
  const values = mergeValues(a, b, type, path);
  if (values !== undefined && values.length === 0) return undefined;
  const out: Record<string, unknown> = {};
  for (const [key, value] of [...Object.entries(b), ...Object.entries(a)]) if (ANNOTATIONS.has(key)) out[key] = value;
  for (const [key, value] of [...Object.entries(a), ...Object.entries(b)])
    if (!ANNOTATIONS.has(key) && !(key in out)) out[key] = value;
  for (const key of ["anyOf", "oneOf", "enum", "const", "items", "prefixItems", "properties", "additionalProperties"])
    delete out[key];
  if (type !== undefined) out["type"] = type;
  if (values !== undefined) out["enum"] = values.map((text) => JSON.parse(text) as unknown);
  for (const key of HIGHER) out[key] = bound(a[key], b[key], Math.max);
  for (const key of LOWER) out[key] = bound(a[key], b[key], Math.min);
  for (const key of LISTED) out[key] = [...asList(a[key]), ...asList(b[key])];
  out["required"] = [...new Set([...asList(a["required"]), ...asList(b["required"])])];
  out["multipleOf"] = mergeMultiple(a["multipleOf"], b["multipleOf"], path);
  const options = mergeOptions(a, b, path);
  if (options !== undefined) out["anyOf"] = options;
  Object.assign(out, mergeProperties(a, b), mergeItems(a, b));
  for (const [key, value] of Object.entries(out))
    if (value === undefined || (Array.isArray(value) && value.length === 0 && key !== "enum")) delete out[key];
  const forbidden = asList(out["required"]).find(
    (name) => isSchema(out["properties"]) && (out["properties"] as Schema)[name as string] === false,
  );
  return forbidden === undefined ? out : undefined;
}
