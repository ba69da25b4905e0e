// Naive datetimes as the BFCL backends use them: datetime.strptime for numeric formats (%Y %m %d %H %M %S and
// literal text) with CPython 3.11's regexes, order of checks and error texts; comparison; adding seconds; and
// strftime for the same directives. No clock: callers pass the instants they mean.
import { PyException } from "./errors.js";
import { stringRepr } from "./format.js";
import { decimalValue } from "./unicode-digits.js";
import { pyTypeName, type PyValue } from "./value.js";

export interface NaiveDateTime {
  readonly year: number;
  readonly month: number;
  readonly day: number;
  readonly hour: number;
  readonly minute: number;
  readonly second: number;
  readonly microsecond: number;
}

export const DATETIME_MIN: NaiveDateTime = { year: 1, month: 1, day: 1, hour: 0, minute: 0, second: 0, microsecond: 0 };
export const DATETIME_MAX: NaiveDateTime = {
  year: 9999,
  month: 12,
  day: 31,
  hour: 23,
  minute: 59,
  second: 59,
  microsecond: 999999,
};

export function naiveDateTime(
  year: number,
  month: number,
  day: number,
  hour = 0,
  minute = 0,
  second = 0,
): NaiveDateTime {
  return { year, month, day, hour, minute, second, microsecond: 0 };
}

// Python's \d (any decimal digit) and \s (str.isspace) inside a unicode-aware JS regex.
const D = "\\p{Nd}";
const S = "[\\t-\\r\\x1c- \\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000]";

const DIRECTIVES: Readonly<Record<string, string>> = {
  Y: `(?<Y>${D}${D}${D}${D})`,
  m: `(?<m>1[0-2]|0[1-9]|[1-9])`,
  d: `(?<d>3[0-1]|[1-2]${D}|0[1-9]|[1-9]| [1-9])`,
  H: `(?<H>2[0-3]|[0-1]${D}|${D})`,
  M: `(?<M>[0-5]${D}|${D})`,
  S: `(?<S>6[0-1]|[0-5]${D}|${D})`,
};

const compiled = new Map<string, RegExp>();

function compileFormat(format: string): RegExp {
  const cached = compiled.get(format);
  if (cached !== undefined) return cached;
  let source = "";
  for (let i = 0; i < format.length; i++) {
    const char = format[i] as string;
    if (char === "%") {
      const directive = format[++i];
      const pattern = directive === undefined ? undefined : DIRECTIVES[directive];
      if (pattern === undefined) throw new Error(`strptime: directive %${directive ?? ""} is not supported here`);
      source += pattern;
    } else if (/\s/.test(char)) {
      while (/\s/.test(format[i + 1] ?? "")) i++;
      source += `${S}+`;
    } else source += char.replace(/[\\^$.*+?()[\]{}|/]/g, "\\$&");
  }
  const regex = new RegExp(`^(?:${source})`, "iu");
  compiled.set(format, regex);
  return regex;
}

/** int() of a run of decimal digits of any script. */
function digitsValue(text: string): number {
  let value = 0;
  for (const char of text) value = value * 10 + (char === " " ? 0 : (decimalValue(char) as number));
  return value;
}

export function isLeapYear(year: number): boolean {
  return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
}

export function daysInMonth(year: number, month: number): number {
  return [31, isLeapYear(year) ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1] as number;
}

/** datetime(...) argument checks, in CPython's order and words. */
function checkFields(value: NaiveDateTime): void {
  if (value.year < 1 || value.year > 9999) throw new PyException("ValueError", `year ${value.year} is out of range`);
  if (value.day > daysInMonth(value.year, value.month))
    throw new PyException("ValueError", "day is out of range for month");
  if (value.second > 59) throw new PyException("ValueError", "second must be in 0..59");
}

/** datetime.strptime(text, format). */
export function pyStrptime(text: PyValue, format: string): NaiveDateTime {
  if (typeof text !== "string") {
    const shown = text === null ? "None" : pyTypeName(text);
    throw new PyException("TypeError", `strptime() argument 1 must be str, not ${shown}`);
  }
  const match = compileFormat(format).exec(text);
  if (match === null)
    throw new PyException("ValueError", `time data ${stringRepr(text)} does not match format ${stringRepr(format)}`);
  if (match[0].length !== text.length)
    throw new PyException("ValueError", `unconverted data remains: ${text.slice(match[0].length)}`);
  const group = (name: string, fallback: number): number => {
    const found = match.groups?.[name];
    return found === undefined ? fallback : digitsValue(found);
  };
  const value = naiveDateTime(
    group("Y", 1900),
    group("m", 1),
    group("d", 1),
    group("H", 0),
    group("M", 0),
    group("S", 0),
  );
  checkFields(value);
  return value;
}

function sortKey(value: NaiveDateTime): readonly number[] {
  return [value.year, value.month, value.day, value.hour, value.minute, value.second, value.microsecond];
}

/** Negative, zero or positive as a < b, a == b, a > b. */
export function compareDateTimes(a: NaiveDateTime, b: NaiveDateTime): number {
  const left = sortKey(a);
  const right = sortKey(b);
  for (let i = 0; i < left.length; i++) if (left[i] !== right[i]) return (left[i] as number) - (right[i] as number);
  return 0;
}

/** value + timedelta(seconds=seconds), calendar-exact (no time zones: naive datetimes have none). */
export function addSeconds(value: NaiveDateTime, seconds: number): NaiveDateTime {
  const date = new Date(0);
  date.setUTCFullYear(value.year, value.month - 1, value.day);
  date.setUTCHours(value.hour, value.minute, value.second + seconds, 0);
  return {
    ...naiveDateTime(
      date.getUTCFullYear(),
      date.getUTCMonth() + 1,
      date.getUTCDate(),
      date.getUTCHours(),
      date.getUTCMinutes(),
      date.getUTCSeconds(),
    ),
    microsecond: value.microsecond,
  };
}

const pad = (value: number, width: number): string => String(value).padStart(width, "0");

/** strftime for %Y %m %d %H %M %S %I %p (C locale) and literal text. */
export function pyStrftime(value: NaiveDateTime, format: string): string {
  return format.replace(/%([YmdHMSIp%])/g, (_, directive: string) => {
    if (directive === "Y") return pad(value.year, 4);
    if (directive === "m") return pad(value.month, 2);
    if (directive === "d") return pad(value.day, 2);
    if (directive === "H") return pad(value.hour, 2);
    if (directive === "M") return pad(value.minute, 2);
    if (directive === "S") return pad(value.second, 2);
    if (directive === "I") return pad(value.hour % 12 === 0 ? 12 : value.hour % 12, 2);
    if (directive === "p") return value.hour < 12 ? "AM" : "PM";
    return "%";
  });
}
