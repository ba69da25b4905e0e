// The slice of mpmath 1.3.0 that MathAPI.logarithm reaches: `mp.dps = n`, converting a Python value to mpf,
// ln() (real, or complex for negative input), division of mpf/mpc values and their repr(), which is what
// upstream's result string shows ("{'result': mpf('1.3027')}"). Values are BigFloats rounded to the working
// precision with round-half-even, as mpmath's round_nearest. ln is correctly rounded (mpmath rounds a
// 20-guard-bit approximation: the two agree except in astronomically rare near-tie cases).
import {
  absBig,
  bitLength,
  fromDouble,
  fromInteger,
  makeFinite,
  NAN,
  NEG_INF,
  POS_INF,
  roundQuotient,
  roundToBits,
  ZERO,
  type BigFloat,
} from "./bigfloat.js";
import { lnRounded, piRounded } from "./bigfloat-elementary.js";
import { roundFloat } from "./arith.js";
import { pyRaise } from "./errors.js";
import { pyRepr } from "./format.js";
import { pyIntOf } from "./convert.js";
import { isFloat, isPyObject, type PyObject, type PyValue } from "./value.js";

/** Python's math.log(10, 2), the constant mpmath's digit/bit conversions use. */
const LOG2_10 = 3.3219280948873626;

/** The largest working precision (bits) we evaluate; far beyond what any call needs. */
export const MAX_MPMATH_PREC = 200_000;

/** mpmath's dps_to_prec(int(n)): the bits `mp.dps = n` selects. */
export function dpsToPrec(dps: number): number {
  return Math.max(1, roundFloat((dps + 1) * LOG2_10, 0));
}

/** mpmath's prec_to_dps. */
export function precToDps(prec: number): number {
  return Math.max(1, roundFloat(prec / LOG2_10, 0) - 1);
}

/** Digits repr() shows at a precision (mpmath's repr_dps). */
export function reprDigits(prec: number): number {
  const dps = precToDps(prec);
  return dps === 15 ? 17 : dps + 3;
}

/** `mpmath.mp.dps = value`: the working precision in bits (int() of the value first, with its errors). */
export function setDps(value: PyValue): number {
  const prec = dpsToPrec(pyIntOf(value));
  if (prec > MAX_MPMATH_PREC)
    pyRaise("ValueError", `precision of ${prec} bits is beyond budgetrl's mpmath emulation (max ${MAX_MPMATH_PREC})`);
  return prec;
}

/** A real mpmath number or a complex one (re, im). */
export type MpNumber =
  | { readonly kind: "mpf"; readonly value: BigFloat }
  | { readonly kind: "mpc"; readonly re: BigFloat; readonly im: BigFloat };

const mpf = (value: BigFloat): MpNumber => ({ kind: "mpf", value });
const mpc = (re: BigFloat, im: BigFloat): MpNumber => ({ kind: "mpc", re, im });

function fromDecimalString(text: string, prec: number): BigFloat | undefined {
  const special: Record<string, BigFloat> = { inf: POS_INF, "+inf": POS_INF, "-inf": NEG_INF, nan: NAN };
  const cleaned = text.toLowerCase().trim();
  if (cleaned in special) return special[cleaned];
  const match = /^([+-]?)(\d*)(?:\.(\d*))?(?:e([+-]?\d+))?$/.exec(cleaned);
  if (match === null || ((match[2] ?? "") === "" && (match[3] ?? "") === "")) return undefined;
  const fraction = (match[3] ?? "").replace(/0+$/, "");
  const exponent = Number(match[4] ?? "0") - fraction.length;
  const digits = BigInt(`${match[2] ?? ""}${fraction}` || "0") * (match[1] === "-" ? -1n : 1n);
  if (exponent >= 0) return roundToBits(digits * 10n ** BigInt(exponent), 0, prec);
  return roundQuotient(digits, 10n ** BigInt(-exponent), 0, prec);
}

/** ctx.convert(x): int/bool/float exactly, decimal strings rounded to prec; anything else raises TypeError. */
export function mpConvert(value: PyValue, prec: number): MpNumber {
  if (typeof value === "boolean") return mpf(fromInteger(value ? 1n : 0n));
  if (typeof value === "number") return mpf(fromInteger(BigInt(value)));
  if (isFloat(value)) return mpf(fromDouble(value.value));
  if (typeof value === "string") {
    const parsed = fromDecimalString(value, prec);
    if (parsed !== undefined) return mpf(parsed);
  }
  return pyRaise("TypeError", `cannot create mpf from ${pyRepr(value)}`);
}

function isNegative(x: BigFloat): boolean {
  return (x.kind === "finite" && x.man < 0n) || (x.kind === "inf" && x.negative);
}

function negate(x: BigFloat): BigFloat {
  if (x.kind === "finite") return makeFinite(-x.man, x.exp);
  if (x.kind === "inf") return { kind: "inf", negative: !x.negative };
  return x;
}

function lnReal(x: BigFloat, prec: number): BigFloat {
  if (x.kind === "zero") return NEG_INF;
  if (x.kind === "nan") return NAN;
  if (x.kind === "inf") return POS_INF;
  return lnRounded(x.man, x.exp, prec);
}

/** mpmath.ln(x): real for x >= 0, (ln|x|, pi) for negative x. */
export function mpLn(x: MpNumber, prec: number): MpNumber {
  if (x.kind === "mpc")
    return pyRaise("TypeError", "budgetrl's mpmath emulation has no complex ln of a complex argument");
  if (!isNegative(x.value)) return mpf(lnReal(x.value, prec));
  return mpc(lnReal(negate(x.value), prec), piRounded(prec));
}

function sign(x: BigFloat): number {
  if (x.kind === "finite") return x.man < 0n ? -1 : 1;
  if (x.kind === "inf") return x.negative ? -1 : 1;
  return 0;
}

/** mpf_div: correctly rounded, ZeroDivisionError (empty message) for a zero divisor, mpmath's special rules. */
function divReal(s: BigFloat, t: BigFloat, prec: number): BigFloat {
  if (s.kind === "zero") {
    if (t.kind === "zero") return pyRaise("ZeroDivisionError", "");
    return t.kind === "nan" ? NAN : ZERO;
  }
  if (t.kind === "zero") return pyRaise("ZeroDivisionError", "");
  const sSpecial = s.kind !== "finite";
  const tSpecial = t.kind !== "finite";
  if (sSpecial && tSpecial) return NAN;
  if (s.kind === "nan" || t.kind === "nan") return NAN;
  if (!tSpecial) return sSpecial ? (sign(s) * sign(t) > 0 ? POS_INF : NEG_INF) : divFinite(s, t, prec);
  return ZERO;
}

function divFinite(s: BigFloat, t: BigFloat, prec: number): BigFloat {
  if (s.kind !== "finite" || t.kind !== "finite") return NAN;
  const negative = s.man < 0n !== t.man < 0n;
  const quotient = roundQuotient(absBig(s.man), absBig(t.man), s.exp - t.exp, prec);
  return negative ? negate(quotient) : quotient;
}

/** mpf_mul without rounding, with mpmath's special values (0 * inf = nan). */
function mulExact(a: BigFloat, b: BigFloat): BigFloat {
  if (a.kind === "nan" || b.kind === "nan") return NAN;
  if (a.kind === "inf" || b.kind === "inf") {
    if (a.kind === "zero" || b.kind === "zero") return NAN;
    return sign(a) * sign(b) > 0 ? POS_INF : NEG_INF;
  }
  if (a.kind === "zero" || b.kind === "zero") return ZERO;
  return makeFinite(a.man * b.man, a.exp + b.exp);
}

/** mpf_add(a, b, prec) with mpmath's default rounding there (round_down: toward zero). */
function addTowardZero(a: BigFloat, b: BigFloat, prec: number): BigFloat {
  if (a.kind === "nan" || b.kind === "nan") return NAN;
  if (a.kind === "inf" || b.kind === "inf") {
    if (a.kind === "inf" && b.kind === "inf" && a.negative !== b.negative) return NAN;
    return a.kind === "inf" ? a : b;
  }
  if (a.kind === "zero") return truncate(b, prec);
  if (b.kind === "zero") return truncate(a, prec);
  const exp = Math.min(a.exp, b.exp);
  const sum = (a.man << BigInt(a.exp - exp)) + (b.man << BigInt(b.exp - exp));
  return truncate(makeFinite(sum, exp), prec);
}

function truncate(x: BigFloat, prec: number): BigFloat {
  if (x.kind !== "finite") return x;
  const shift = bitLength(x.man) - prec;
  if (shift <= 0) return x;
  const magnitude = absBig(x.man) >> BigInt(shift);
  return makeFinite(x.man < 0n ? -magnitude : magnitude, x.exp + shift);
}

/** s / t for mpf or mpc operands, as mpmath's __truediv__ dispatches (mpc_div_mpf, mpc_mpf_div, mpc_div). */
export function mpDivide(s: MpNumber, t: MpNumber, prec: number): MpNumber {
  if (s.kind === "mpf" && t.kind === "mpf") return mpf(divReal(s.value, t.value, prec));
  if (s.kind === "mpc" && t.kind === "mpf") return mpc(divReal(s.re, t.value, prec), divReal(s.im, t.value, prec));
  const [a, b] = s.kind === "mpc" ? [s.re, s.im] : [s.value, ZERO];
  const [c, d] = t.kind === "mpc" ? [t.re, t.im] : [ZERO, ZERO];
  const wp = prec + 10;
  const magnitude = addTowardZero(mulExact(c, c), mulExact(d, d), wp);
  if (s.kind === "mpf") {
    // mpc_mpf_div(p, z): re = (c*p)/m, im = -(d*p)/m
    return mpc(divReal(mulExact(c, a), magnitude, prec), divReal(negate(mulExact(d, a)), magnitude, prec));
  }
  const real = addTowardZero(mulExact(a, c), mulExact(b, d), wp);
  const imag = addTowardZero(mulExact(b, c), negate(mulExact(a, d)), wp);
  return mpc(divReal(real, magnitude, prec), divReal(imag, magnitude, prec));
}

/** mpmath's to_digits_exp(x, dps) for |x| > 0: digits (rounded toward zero) and the decimal exponent. */
function toDigitsExp(man: bigint, exp: number, dps: number): { digits: string; exponent: number } {
  const bitprec = Math.trunc(dps * LOG2_10) + 10;
  const bc = bitLength(man);
  const fixprec = Math.max(bitprec - exp - bc, 0);
  const fixdps = Math.trunc(fixprec / LOG2_10 + 0.5);
  const offset = exp + fixprec;
  const magnitude = absBig(man);
  const fixed = offset >= 0 ? magnitude << BigInt(offset) : magnitude >> BigInt(-offset);
  const scaled = (fixed * 10n ** BigInt(fixdps)) >> BigInt(fixprec);
  const digits = scaled.toString();
  return { digits, exponent: digits.length - fixdps - 1 };
}

/** mpmath's to_str(x, dps) with its default fixed/scientific thresholds and trailing-zero stripping. */
export function mpToStr(x: BigFloat, dps: number): string {
  if (x.kind === "zero") return "0.0";
  if (x.kind === "inf") return x.negative ? "-inf" : "+inf";
  if (x.kind === "nan") return "nan";
  const minFixed = Math.min(-Math.floor(dps / 3), -5);
  const maxFixed = dps;
  const sign = x.man < 0n ? "-" : "";
  let { digits, exponent } = toDigitsExp(x.man, x.exp, dps + 3);
  if (digits.length > dps && "56789".includes(digits[dps] as string)) {
    digits = digits.slice(0, dps);
    let i = dps - 1;
    while (i >= 0 && digits[i] === "9") i--;
    if (i >= 0) digits = digits.slice(0, i) + String(Number(digits[i]) + 1) + "0".repeat(dps - i - 1);
    else {
      digits = "1" + "0".repeat(dps - 1);
      exponent += 1;
    }
  } else digits = digits.slice(0, dps);
  let split = 1;
  if (minFixed < exponent && exponent < maxFixed) {
    if (exponent < 0) digits = "0".repeat(-exponent) + digits;
    else {
      split = exponent + 1;
      if (split > dps) digits += "0".repeat(split - dps);
    }
    exponent = 0;
  }
  digits = `${digits.slice(0, split)}.${digits.slice(split)}`.replace(/0+$/, "");
  if (digits.endsWith(".")) digits += "0";
  if (exponent === 0) return sign + digits;
  return `${sign}${digits}e${exponent > 0 ? "+" : ""}${exponent}`;
}

/** An mpmath result as a Python object: repr "mpf('...')" / "mpc(real='...', imag='...')", not JSON serialisable. */
export function mpObject(x: MpNumber, prec: number): PyObject {
  const digits = reprDigits(prec);
  const text =
    x.kind === "mpf"
      ? `mpf('${mpToStr(x.value, digits)}')`
      : `mpc(real='${mpToStr(x.re, digits)}', imag='${mpToStr(x.im, digits)}')`;
  return {
    kind: "object",
    pyClass: x.kind,
    pyAttributes: () => [],
    pyRepr: () => text,
    pyEquals: (other) => isPyObject(other) && other.pyClass === x.kind && other.pyRepr() === text,
  };
}
