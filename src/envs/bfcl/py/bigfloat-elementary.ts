// Elementary functions on BigFloat, correctly rounded by Ziv's strategy: evaluate in fixed point with W
// fractional bits and a proven error bound (in units of 2^-W), round both ends of the interval, and double W
// until they agree. Series: ln via 2*atanh((f-1)/(f+1)) with f in [1/sqrt2, sqrt2), ln2 = 2*atanh(1/3),
// pi by Machin's formula, exp by Taylor after reduction by k*ln2. Used for mpmath's log and for pow() on doubles
// (CPython calls the C library's pow, which is correctly rounded in all but vanishingly rare cases).
import { absBig, bitLength, fromDouble, roundToBits, toDouble, ZERO, type BigFloat } from "./bigfloat.js";

/** A fixed-point approximation: |value - true * 2^W| <= error. */
interface Approximation {
  readonly value: bigint;
  readonly error: bigint;
}

/** The widest working precision the Ziv loops try before settling for the current approximation. */
const MAX_WORKING_BITS = 1 << 16;

/** atanh(p/q) * 2^W for |p/q| <= 1/3, q > 0 (odd function: the sign is applied at the end). */
function atanhFixed(p: bigint, q: bigint, width: number): Approximation {
  if (p < 0n) {
    const positive = atanhFixed(-p, q, width);
    return { value: -positive.value, error: positive.error };
  }
  const w = BigInt(width);
  let power = (p << w) / q;
  const square = ((p * p) << w) / (q * q);
  let sum = 0n;
  let terms = 0n;
  for (let k = 1n; power !== 0n; k += 2n) {
    sum += power / k;
    power = (power * square) >> w;
    terms += 1n;
  }
  return { value: sum, error: 2n * terms + 4n };
}

const ln2Cache = new Map<number, Approximation>();

/** ln 2 * 2^W. */
function ln2Fixed(width: number): Approximation {
  const cached = ln2Cache.get(width);
  if (cached !== undefined) return cached;
  const half = atanhFixed(1n, 3n, width);
  const result = { value: 2n * half.value, error: 2n * half.error };
  if (ln2Cache.size > 64) ln2Cache.clear();
  ln2Cache.set(width, result);
  return result;
}

/** atan(1/n) * 2^W (alternating series). */
function atanInverseFixed(n: bigint, width: number): Approximation {
  let power = (1n << BigInt(width)) / n;
  const square = n * n;
  let sum = 0n;
  let terms = 0n;
  for (let k = 1n; power !== 0n; k += 2n) {
    sum += (k % 4n === 1n ? power : -power) / k;
    power /= square;
    terms += 1n;
  }
  return { value: sum, error: 2n * terms + 2n };
}

/** pi * 2^W. */
export function piFixed(width: number): Approximation {
  const a = atanInverseFixed(5n, width);
  const b = atanInverseFixed(239n, width);
  return { value: 16n * a.value - 4n * b.value, error: 16n * a.error + 4n * b.error };
}

/** ln(man * 2^exp) * 2^W for man > 0. */
function lnFixed(man: bigint, exp: number, width: number): Approximation {
  let bits = bitLength(man);
  // f = man / 2^bits in [1/2, 1); move it to [1/sqrt2, sqrt2) so the atanh argument stays below 0.172.
  if (2n * man * man < 1n << BigInt(2 * bits)) bits -= 1;
  const k = exp + bits;
  const unit = 1n << BigInt(bits);
  const atanh = atanhFixed(man - unit, man + unit, width);
  const ln2 = ln2Fixed(width);
  const scale = BigInt(Math.abs(k));
  return {
    value: 2n * atanh.value + BigInt(k) * ln2.value,
    error: 2n * atanh.error + scale * ln2.error + 1n,
  };
}

function sameFloat(a: BigFloat, b: BigFloat): boolean {
  if (a.kind !== b.kind) return false;
  if (a.kind !== "finite" || b.kind !== "finite") return true;
  return a.man === b.man && a.exp === b.exp;
}

/** Round an approximation (scale 2^-W) to prec bits if its whole error interval rounds the same way. */
function decided(approx: Approximation, width: number, prec: number): BigFloat | undefined {
  const low = approx.value - approx.error;
  const high = approx.value + approx.error;
  if (low <= 0n && high >= 0n) return undefined;
  const a = roundToBits(low, -width, prec);
  const b = roundToBits(high, -width, prec);
  return sameFloat(a, b) ? a : undefined;
}

/** ln(x) correctly rounded to prec bits, for finite x > 0. */
export function lnRounded(man: bigint, exp: number, prec: number): BigFloat {
  if (man === 1n && exp === 0) return ZERO;
  let width = prec + 48;
  for (;;) {
    const approx = lnFixed(man, exp, width);
    const result = decided(approx, width, prec);
    if (result !== undefined) return result;
    if (width > MAX_WORKING_BITS) return roundToBits(approx.value, -width, prec);
    width *= 2;
  }
}

/** pi correctly rounded to prec bits. */
export function piRounded(prec: number): BigFloat {
  let width = prec + 48;
  for (;;) {
    const approx = piFixed(width);
    const result = decided(approx, width, prec);
    if (result !== undefined) return result;
    width *= 2;
  }
}

/** exp(r) * 2^W for |r| <= 1/2 given as r * 2^W (exact input). */
function expFixed(r: bigint, width: number): Approximation {
  const w = BigInt(width);
  let term = 1n << w;
  let sum = term;
  let terms = 0n;
  for (let n = 1n; term !== 0n; n += 1n) {
    term = ((term * r) >> w) / n;
    sum += term;
    terms += 1n;
  }
  return { value: sum, error: 2n * terms + 2n };
}

/** x^n exactly for a double x and a small non-negative integer n, as man * 2^exp. */
function exactPower(x: number, n: number): { man: bigint; exp: number } {
  const base = fromDouble(x);
  if (base.kind !== "finite") throw new RangeError("exactPower needs a finite nonzero base");
  return { man: base.man ** BigInt(n), exp: base.exp * n };
}

function quotientToDouble(num: bigint, den: bigint, exp: number): number {
  const shift = 64 - (bitLength(num) - bitLength(den));
  const scaledNum = shift >= 0 ? num << BigInt(shift) : num;
  const scaledDen = shift >= 0 ? den : den << BigInt(-shift);
  const quotient = scaledNum / scaledDen;
  return toDouble(quotient, exp - shift, quotient * scaledDen !== scaledNum);
}

/** pow(x, y) for finite x > 0 and finite y, correctly rounded to a double (overflow gives Infinity). */
export function powPositive(x: number, y: number): number {
  if (y === 0 || x === 1) return 1;
  if (Number.isInteger(y) && Math.abs(y) <= 64) {
    const { man, exp } = exactPower(x, Math.abs(y));
    if (y > 0) return toDouble(man, exp);
    return quotientToDouble(1n, man, -exp);
  }
  const base = fromDouble(x);
  const exponent = fromDouble(y);
  if (base.kind !== "finite" || exponent.kind !== "finite") throw new RangeError("powPositive needs finite arguments");
  let width = 96;
  for (;;) {
    const result = powAttempt(base.man, base.exp, exponent.man, exponent.exp, width);
    if (result !== undefined) return result;
    width *= 2;
  }
}

function powAttempt(baseMan: bigint, baseExp: number, yMan: bigint, yExp: number, width: number): number | undefined {
  const ln = lnFixed(baseMan, baseExp, width);
  // L = y * ln(x) at scale 2^-W.
  const product = ln.value * yMan;
  const productError = ln.error * absBig(yMan);
  const L = yExp >= 0 ? product << BigInt(yExp) : product >> BigInt(-yExp);
  const errorL = (yExp >= 0 ? productError << BigInt(yExp) : (productError >> BigInt(-yExp)) + 1n) + 1n;
  const one = 1n << BigInt(width);
  const magnitude = absBig(L) / one;
  if (magnitude > 2000n) return L > 0n ? Infinity : 0;
  const ln2 = ln2Fixed(width);
  const k = BigInt(Math.round(Number(L >> BigInt(Math.max(width - 60, 0))) / 2 ** Math.min(width, 60) / Math.LN2));
  const r = L - k * ln2.value;
  const errorR = errorL + absBig(k) * ln2.error;
  const exp = expFixed(r, width);
  const errorTotal = 2n * errorR + exp.error + 2n;
  const shift = Number(k) - width;
  const low = toDouble(exp.value - errorTotal, shift);
  const high = toDouble(exp.value + errorTotal, shift);
  if (low === high) return low;
  if (width > MAX_WORKING_BITS / 16) return toDouble(exp.value, shift);
  return undefined;
}
