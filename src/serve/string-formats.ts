// JSON Schema `format`s of strings as the patterns constrained decoding writes them to (schema-shape.ts): each a
// subset of what Ajv's ajv-formats (full mode), zod (z.email(), z.uuid(), z.iso.datetime(), z.url(), z.ipv4(),
// z.ipv6()) and pydantic (EmailStr, UUID, datetime, date, time, AnyUrl, IPv4Address, IPv6Address) all accept, so
// a reply validates under each:
//
//   email      a local part of 1 to 4 dot-separated pieces of 1 to 15 of [A-Za-z0-9_+-] (at most 63 characters:
//              email-validator, behind pydantic's EmailStr, refuses more than 64), a domain of 1 to 4 labels of 1 to
//              40 letters, digits and inner hyphens and a top-level domain of 2 to 24 letters (at most 188
//              characters: it refuses more than 253)
//   uuid       lower-case hex, version 1-8 and variant 8/9/a/b (zod's rule; Ajv takes any hex)
//   date-time  YYYY-MM-DDTHH:MM:SS(.fraction)Z: real dates only (leap years too; Ajv checks them), UTC ("Z": zod's
//              default refuses offsets, Ajv needs a zone)
//   date       YYYY-MM-DD, real dates only
//   time       HH:MM:SS(.fraction)Z (Ajv's full mode needs the zone)
//   uri        http or https, a host of labels, an optional port, a path, query and fragment of URI characters (or
//              %XX escapes)
//   ipv4       four decimal octets 0-255 without leading zeros
//   ipv6       the full form: eight groups of 1 to 4 hex digits
//   ipvanyaddress  pydantic's IPvAnyAddress: either of the two
// Other formats are annotations (they constrain nothing here, as vLLM's default backend treats the ones it lacks).
const LABEL = "[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?";
const SHORT_LABEL = "[A-Za-z0-9](?:[A-Za-z0-9-]{0,38}[A-Za-z0-9])?";
const DATE =
  "(?:(?:\\d\\d(?:[2468][048]|[13579][26]|0[48])|(?:[02468][048]|[13579][26])00)-02-29" +
  "|\\d{4}-(?:(?:0[13578]|1[02])-(?:0[1-9]|[12]\\d|3[01])|(?:0[469]|11)-(?:0[1-9]|[12]\\d|30)|02-(?:0[1-9]|1\\d|2[0-8])))";
const TIME = "(?:[01]\\d|2[0-3]):[0-5]\\d:[0-5]\\d(?:\\.\\d{1,9})?Z";
const OCTET = "(?:25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)";
const IPV6 = "[0-9a-fA-F]{1,4}(?::[0-9a-fA-F]{1,4}){7}";
const URI_CHAR = "(?:[A-Za-z0-9\\-._~!$&'()*+,;=:@]|%[0-9A-Fa-f]{2})";
const URI_TAIL_CHAR = "(?:[A-Za-z0-9\\-._~!$&'()*+,;=:@/?]|%[0-9A-Fa-f]{2})";

/** Each format's pattern (anchored: the whole string). */
export const FORMAT_PATTERNS: Readonly<Record<string, string>> = {
  email: `^[A-Za-z0-9_+-]{1,15}(?:\\.[A-Za-z0-9_+-]{1,15}){0,3}@(?:${SHORT_LABEL}\\.){1,4}[A-Za-z]{2,24}$`,
  uuid: "^[0-9a-f]{8}-[0-9a-f]{4}-[1-8][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$",
  "date-time": `^${DATE}T${TIME}$`,
  date: `^${DATE}$`,
  time: `^${TIME}$`,
  uri: `^https?://${LABEL}(?:\\.${LABEL})*(?::\\d{1,4})?(?:/${URI_CHAR}*)*(?:\\?${URI_TAIL_CHAR}*)?(?:#${URI_TAIL_CHAR}*)?$`,
  ipv4: `^${OCTET}(?:\\.${OCTET}){3}$`,
  ipv6: `^${IPV6}$`,
  ipvanyaddress: `^(?:${OCTET}(?:\\.${OCTET}){3}|${IPV6})$`,
};

/** The pattern of a format, or undefined for one that is only an annotation. */
export function formatPattern(format: string): string | undefined {
  return Object.hasOwn(FORMAT_PATTERNS, format) ? FORMAT_PATTERNS[format] : undefined;
}
