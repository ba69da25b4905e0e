// What a value is, in a few words, for error messages about values we did not expect: "undefined", "null",
// "a number (42)", "a string", "an array of 3 items", "an object with keys {text, tokens}", "a Promise".
export function describeValue(value: unknown): string {
  if (value === undefined) return "undefined";
  if (value === null) return "null";
  if (typeof value === "string")
    return `a string (${JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}...` : value)})`;
  if (typeof value === "number" || typeof value === "boolean" || typeof value === "bigint")
    return `a ${typeof value} (${String(value)})`;
  if (typeof value === "function") return "a function";
  if (typeof value === "symbol") return "a symbol";
  if (Array.isArray(value)) return `an array of ${value.length} item${value.length === 1 ? "" : "s"}`;
  if (value instanceof Promise) return "a Promise";
  const name =
    Object.getPrototypeOf(value) === Object.prototype || Object.getPrototypeOf(value) === null
      ? "an object"
      : `an object of class ${(value as object).constructor.name}`;
  const keys = Object.keys(value as object);
  return keys.length === 0
    ? `${name} with no keys`
    : `${name} with keys {${keys.slice(0, 6).join(", ")}${keys.length > 6 ? ", ..." : ""}}`;
}
