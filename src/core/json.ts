// JSON values: the shape of everything budgetrl stores, exports or reads from task files.
export type Json = null | boolean | number | string | readonly Json[] | { readonly [key: string]: Json };
export type JsonObject = { readonly [key: string]: Json };

/** JSON with object keys sorted at every level (integer-like keys too, which JSON.stringify would put first):
 * equal values give byte-identical text. Written directly, without copying the value (model requests of
 * hundreds of kilobytes are keyed this way on every call). */
export function canonicalJson(value: unknown): string {
  return writeCanonical(value, false) ?? "null";
}

/** One value as JSON.stringify writes it (undefined: left out of objects, null in arrays). */
function writeCanonical(value: unknown, inArray: boolean): string | undefined {
  if (value === null) return "null";
  switch (typeof value) {
    case "string":
      return JSON.stringify(value);
    case "number":
      return Number.isFinite(value) ? JSON.stringify(value) : "null";
    case "boolean":
      return value ? "true" : "false";
    case "object":
      break;
    default:
      return inArray ? "null" : undefined;
  }
  if (Array.isArray(value)) return `[${value.map((item: unknown) => writeCanonical(item, true) ?? "null").join(",")}]`;
  const parts: string[] = [];
  for (const key of Object.keys(value as object).sort()) {
    const written = writeCanonical((value as Record<string, unknown>)[key], false);
    if (written !== undefined) parts.push(`${JSON.stringify(key)}:${written}`);
  }
  return `{${parts.join(",")}}`;
}
