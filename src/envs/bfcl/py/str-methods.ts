// The str methods the BFCL backends call, on any PyValue: a non-str receiver raises CPython's AttributeError
// ("'int' object has no attribute 'lower'"), and str.format/str.join raise the errors CPython raises.
import { PyException } from "./errors.js";
import { pyRepr, pyStr } from "./format.js";
import { pyTypeName, type PyValue } from "./value.js";

/** The receiver of `value.<method>(...)` as a str, or the AttributeError Python raises. */
export function strReceiver(value: PyValue, method: string): string {
  if (typeof value !== "string")
    throw new PyException("AttributeError", `'${pyTypeName(value)}' object has no attribute '${method}'`);
  return value;
}

/** value.lower(). */
export function pyLower(value: PyValue): string {
  return strReceiver(value, "lower").toLowerCase();
}

/** value.startswith(prefix). */
export function pyStartsWith(value: PyValue, prefix: string): boolean {
  return strReceiver(value, "startswith").startsWith(prefix);
}

/** separator.join(items): every item must be a str. */
export function pyJoin(separator: string, items: readonly PyValue[]): string {
  items.forEach((item, index) => {
    if (typeof item !== "string")
      throw new PyException("TypeError", `sequence item ${index}: expected str instance, ${pyTypeName(item)} found`);
  });
  return items.join(separator);
}

/**
 * template.format(**fields) for templates with named fields only: "{name}", "{name!r}", "{name!s}", "{{" and
 * "}}". A field missing from `fields` raises KeyError(name); unbalanced braces raise ValueError.
 */
export function pyFormatNamed(template: string, fields: ReadonlyMap<string, PyValue>): string {
  let out = "";
  let i = 0;
  while (i < template.length) {
    const char = template[i] as string;
    if (char === "}") {
      if (template[i + 1] !== "}") throw new PyException("ValueError", "Single '}' encountered in format string");
      out += "}";
      i += 2;
    } else if (char === "{") {
      if (template[i + 1] === "{") {
        out += "{";
        i += 2;
        continue;
      }
      const close = template.indexOf("}", i);
      if (close < 0) throw new PyException("ValueError", "Single '{' encountered in format string");
      out += formatField(template.slice(i + 1, close), fields);
      i = close + 1;
    } else {
      out += char;
      i++;
    }
  }
  return out;
}

function formatField(field: string, fields: ReadonlyMap<string, PyValue>): string {
  const match = /^([A-Za-z_][A-Za-z0-9_]*)(?:!([rs]))?$/.exec(field);
  if (match === null) throw new Error(`pyFormatNamed: field {${field}} is beyond what the BFCL templates use`);
  const name = match[1] as string;
  const value = fields.get(name);
  if (value === undefined) throw new PyException("KeyError", `'${name}'`);
  return match[2] === "r" ? pyRepr(value) : pyStr(value);
}
