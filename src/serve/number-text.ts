// The text of a JSON number as constrained decoding writes it (json-constraint.ts), byte by byte, so that every
// number it writes parses to a finite value within the schema's bounds, as a validator reads it:
//
//   integers        -?(0|[1-9][0-9]*) within [minimum, maximum] (exclusive ones too) and, when given, a multiple
//                   of multipleOf; never beyond the safe integers (|n| <= 2^53 - 1, as zod's z.int() asks), so at
//                   most 16 digits
//   bounded numbers -?(0|[1-9][0-9]*)(.[0-9]+)? within the bounds, at most 15 digits (the integer part's, a lone
//                   0 not counted, and the fraction's), no exponent: a decimal of at most 15 significant digits
//                   parses to the double nearest it and no two such decimals to the same double, so comparing the
//                   text exactly with the bound's shortest decimal (String(bound)) agrees with a validator
//                   comparing doubles
//   other numbers   -?(0|[1-9][0-9]{0,15})(.[0-9]+)?([eE][+-]?[0-9]{1,2})?: at most 16 integer digits and a
//                   two-digit exponent, so at most about 1e115, never Infinity
// `fewestMore(text)` is the exact fewest bytes that complete the text to a number of the shape (0: it is one;
// Infinity: none), computed with exact decimal arithmetic (BigInt): the completions of a prefix are intervals on a
// decimal grid, and a grid point within the bounds is searched for per count of digits still to come.
import { compileRegex } from "./regex-automaton.js";
import { LazyDfa } from "./regex-dfa.js";
import { parseRegex } from "./regex-syntax.js";

/** A bound: num / 10^scale, and whether the bound itself is excluded. */
export interface Bound {
  readonly num: bigint;
  readonly scale: number;
  readonly exclusive: boolean;
}

export interface NumberRange {
  readonly low?: Bound;
  readonly high?: Bound;
  /** Integers only. */
  readonly multipleOf?: bigint;
}

export interface NumberShape {
  readonly kind: "number";
  readonly integer: boolean;
  /** Bounds (always for integers: the safe integers at the widest); undefined: the exponent form above. */
  readonly range?: NumberRange;
}

export const SAFE_INTEGER = BigInt(Number.MAX_SAFE_INTEGER);
const DECIMAL_DIGITS = 15;
const INTEGER_DIGITS = 16;

/** A finite number as an exact decimal bound (its shortest decimal, as String() writes it). */
export function boundOf(value: number, exclusive: boolean): Bound {
  const match = /^(-?)(\d+)(?:\.(\d+))?(?:e([+-]\d+))?$/.exec(String(value))!;
  const digits = `${match[2]!}${match[3] ?? ""}`;
  let scale = (match[3] ?? "").length - Number(match[4] ?? 0);
  let num = BigInt(digits) * (match[1] === "-" ? -1n : 1n);
  if (scale < 0) {
    num *= 10n ** BigInt(-scale);
    scale = 0;
  }
  return { num, scale, exclusive };
}

const pow10 = (n: number): bigint => 10n ** BigInt(n);
const floorDiv = (a: bigint, b: bigint): bigint => (a >= 0n ? a / b : -((-a + b - 1n) / b));
const ceilDiv = (a: bigint, b: bigint): bigint => -floorDiv(-a, b);

/** The lowest grid point (units of 10^-scale) the low bound allows. */
function lowUnits(bound: Bound | undefined, scale: number): bigint | undefined {
  if (bound === undefined) return undefined;
  const shift = scale - bound.scale;
  if (shift >= 0) return bound.num * pow10(shift) + (bound.exclusive ? 1n : 0n);
  const divisor = pow10(-shift);
  const units = ceilDiv(bound.num, divisor);
  return bound.exclusive && units * divisor === bound.num ? units + 1n : units;
}

function highUnits(bound: Bound | undefined, scale: number): bigint | undefined {
  if (bound === undefined) return undefined;
  const shift = scale - bound.scale;
  if (shift >= 0) return bound.num * pow10(shift) - (bound.exclusive ? 1n : 0n);
  const divisor = pow10(-shift);
  const units = floorDiv(bound.num, divisor);
  return bound.exclusive && units * divisor === bound.num ? units - 1n : units;
}

/** True when [a, b] (units of 10^-scale) holds a grid point within the range (and a multiple, for integers). */
function hits(range: NumberRange, a: bigint, b: bigint, scale: number): boolean {
  const low = lowUnits(range.low, scale);
  const high = highUnits(range.high, scale);
  const from = low !== undefined && low > a ? low : a;
  const to = high !== undefined && high < b ? high : b;
  if (from > to) return false;
  const m = range.multipleOf;
  return m === undefined || floorDiv(to, m) * m >= from;
}

function mirrored(range: NumberRange): NumberRange {
  const flip = (bound: Bound | undefined): Bound | undefined =>
    bound === undefined ? undefined : { ...bound, num: -bound.num };
  const low = flip(range.high);
  const high = flip(range.low);
  return {
    ...(low === undefined ? {} : { low }),
    ...(high === undefined ? {} : { high }),
    ...(range.multipleOf === undefined ? {} : { multipleOf: range.multipleOf }),
  };
}

const DIGITS = "0123456789";

/** Fewest bytes after the unsigned text `t` (digits, maybe a point and digits) to a number within the range. */
function unsignedRest(t: string, range: NumberRange, integer: boolean): number {
  if (t === "") return 1 + Math.min(...Array.from(DIGITS, (d) => unsignedRest(d, range, integer)));
  const [whole = "", fraction] = t.split(".");
  if (whole.length > 1 && whole.startsWith("0")) return Infinity;
  const v = BigInt(whole);
  const significant = whole === "0" ? 0 : whole.length;
  if (integer) {
    if (fraction !== undefined) return Infinity;
    const most = whole === "0" ? 0 : INTEGER_DIGITS - whole.length;
    for (let k = 0; k <= most; k++) if (hits(range, v * pow10(k), (v + 1n) * pow10(k) - 1n, 0)) return k;
    return Infinity;
  }
  const room = DECIMAL_DIGITS - significant;
  if (room < 0) return Infinity;
  if (fraction !== undefined) {
    if (fraction.length > room) return Infinity;
    const w = BigInt(whole + fraction);
    for (let more = fraction === "" ? 1 : 0; more <= room - fraction.length; more++) {
      const scale = fraction.length + more;
      if (hits(range, w * pow10(more), (w + 1n) * pow10(more) - 1n, scale)) return more;
    }
    return Infinity;
  }
  let best = Infinity;
  const most = whole === "0" ? 0 : room;
  for (let k = 0; k <= most && k < best; k++) {
    if (hits(range, v * pow10(k), (v + 1n) * pow10(k) - 1n, 0)) return k;
    for (let f = 1; f <= room - k && k + 1 + f < best; f++)
      if (hits(range, v * pow10(k + f), (v + 1n) * pow10(k + f) - 1n, f)) best = k + 1 + f;
  }
  return best;
}

const UNBOUNDED = new LazyDfa(
  compileRegex(parseRegex("-?(?:0|[1-9][0-9]{0,15})(?:\\.[0-9]+)?(?:[eE][+-]?[0-9]{1,2})?"), false),
);

function unboundedState(text: string): number {
  let state = UNBOUNDED.start;
  for (const ch of text) if ((state = state < 0 ? -1 : UNBOUNDED.next(state, ch.charCodeAt(0))) < 0) return -1;
  return state;
}

const restCache = new WeakMap<NumberShape, Map<string, number>>();

/** The fewest bytes that complete the text (a prefix of a number) to a number of the shape; 0: it is one. */
export function fewestMore(shape: NumberShape, text: string): number {
  let cache = restCache.get(shape);
  if (cache === undefined) restCache.set(shape, (cache = new Map()));
  let rest = cache.get(text);
  if (rest !== undefined) return rest;
  const { range } = shape;
  if (range === undefined) {
    const state = unboundedState(text);
    rest = state < 0 ? Infinity : UNBOUNDED.fewest(state, 0, "raw");
  } else if (text === "") rest = Math.min(unsignedRest("", range, shape.integer), 1 + fewestMore(shape, "-"));
  else if (text.startsWith("-0") && shape.integer)
    rest = Infinity; // -0: write 0
  else if (text === "-" && shape.integer)
    rest = 1 + Math.min(...Array.from("123456789", (d) => fewestMore(shape, `-${d}`)));
  else if (text.startsWith("-")) rest = unsignedRest(text.slice(1), mirrored(range), shape.integer);
  else rest = unsignedRest(text, range, shape.integer);
  cache.set(text, rest);
  return rest;
}

/** The text after byte b, or undefined when b cannot come next. */
export function numberStep(shape: NumberShape, text: string, b: number): string | undefined {
  const ch = String.fromCharCode(b);
  if (!/[-0-9.eE+]/.test(ch) || b > 0x7f) return undefined;
  if (shape.range !== undefined && !/^-?(\d+(\.\d*)?)?$/.test(text + ch)) return undefined;
  const next = text + ch;
  return fewestMore(shape, next) < Infinity ? next : undefined;
}
