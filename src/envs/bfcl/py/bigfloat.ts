// Exact binary floating point on BigInt: value = man * 2^exp. The shared core of the mpmath emulation
// (mpf values at any precision) and of correctly rounded libm-style functions on doubles. Rounding is
// round-half-even with a sticky bit, as mpmath's round_nearest and IEEE 754 do.
//   finite: man != 0 (signed), normalised so that man is odd (mpmath's canonical form)
//   zero / inf (signed) / nan: the special values (mpmath has no negative zero)

export type BigFloat =
  | { readonly kind: "finite"; readonly man: bigint; readonly exp: number }
  | { readonly kind: "zero" }
  | { readonly kind: "inf"; readonly negative: boolean }
  | { readonly kind: "nan" };

export const ZERO: BigFloat = { kind: "zero" };
export const NAN: BigFloat = { kind: "nan" };
export const POS_INF: BigFloat = { kind: "inf", negative: false };
export const NEG_INF: BigFloat = { kind: "inf", negative: true };

export function absBig(n: bigint): bigint {
  return n < 0n ? -n : n;
}

/** Number of bits of |n| (0 for 0). */
export function bitLength(n: bigint): number {
  const magnitude = absBig(n);
  if (magnitude === 0n) return 0;
  const hex = magnitude.toString(16);
  return (hex.length - 1) * 4 + parseInt(hex[0] as string, 16).toString(2).length;
}

/** man * 2^exp in canonical form (odd mantissa), or zero. */
export function makeFinite(man: bigint, exp: number): BigFloat {
  if (man === 0n) return ZERO;
  let mantissa = man;
  let exponent = exp;
  while ((mantissa & 0xffffffffn) === 0n) {
    mantissa >>= 32n;
    exponent += 32;
  }
  while ((mantissa & 1n) === 0n) {
    mantissa >>= 1n;
    exponent += 1;
  }
  return { kind: "finite", man: mantissa, exp: exponent };
}

/**
 * Round man * 2^exp to `prec` significant bits, half to even. `sticky` says nonzero bits lie below man
 * (callers pass at least prec + 2 bits whenever sticky is set, so it only breaks ties).
 */
export function roundToBits(man: bigint, exp: number, prec: number, sticky = false): BigFloat {
  const negative = man < 0n;
  const magnitude = absBig(man);
  const shift = bitLength(magnitude) - prec;
  if (shift <= 0) return makeFinite(man, exp);
  const big = BigInt(shift);
  let quotient = magnitude >> big;
  const remainder = magnitude - (quotient << big);
  const half = 1n << (big - 1n);
  if (remainder > half || (remainder === half && (sticky || (quotient & 1n) === 1n))) quotient += 1n;
  return makeFinite(negative ? -quotient : quotient, exp + shift);
}

/** (num / den) * 2^exp rounded to prec bits; den > 0. */
export function roundQuotient(num: bigint, den: bigint, exp: number, prec: number): BigFloat {
  if (num === 0n) return ZERO;
  const negative = num < 0n;
  const magnitude = absBig(num);
  const shift = prec + 3 - (bitLength(magnitude) - bitLength(den));
  const scaledNum = shift >= 0 ? magnitude << BigInt(shift) : magnitude;
  const scaledDen = shift >= 0 ? den : den << BigInt(-shift);
  const quotient = scaledNum / scaledDen;
  const sticky = quotient * scaledDen !== scaledNum;
  return roundToBits(negative ? -quotient : quotient, exp - shift, prec, sticky);
}

/** The exact BigFloat of a double. */
export function fromDouble(x: number): BigFloat {
  if (Number.isNaN(x)) return NAN;
  if (x === Infinity) return POS_INF;
  if (x === -Infinity) return NEG_INF;
  if (x === 0) return ZERO;
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, x);
  const high = view.getUint32(0);
  const low = view.getUint32(4);
  const biased = (high >>> 20) & 0x7ff;
  let man = (BigInt(high & 0xfffff) << 32n) | BigInt(low);
  let exp = -1074;
  if (biased !== 0) {
    man |= 1n << 52n;
    exp = biased - 1075;
  }
  return makeFinite(high >>> 31 ? -man : man, exp);
}

/** The exact BigFloat of a (safe) integer. */
export function fromInteger(n: bigint): BigFloat {
  return makeFinite(n, 0);
}

/** Position of the leading bit: value in [2^top, 2^(top+1)). */
export function topBit(x: { readonly man: bigint; readonly exp: number }): number {
  return x.exp + bitLength(x.man) - 1;
}

/** Precision (in bits) a double has at a value whose leading bit is 2^top: 53, fewer for subnormals. */
export function doublePrecisionAt(top: number): number {
  return Math.min(53, top + 1075);
}

/** Round man * 2^exp (plus sticky bits) to the nearest double, ties to even, with subnormals and overflow. */
export function toDouble(man: bigint, exp: number, sticky = false): number {
  if (man === 0n) return 0;
  const top = exp + bitLength(man) - 1;
  const prec = doublePrecisionAt(top);
  if (prec < 1) {
    // Below half the smallest subnormal: 0; above it: the smallest subnormal; exactly half: 0 (even).
    const aboveHalf = top === -1075 && (absBig(man) !== 1n << BigInt(bitLength(man) - 1) || sticky);
    return aboveHalf ? Math.sign(Number(man)) * 5e-324 : 0 * Math.sign(Number(man));
  }
  const rounded = roundToBits(man, exp, prec, sticky);
  return finiteToDouble(rounded);
}

/** The double of a BigFloat that is already on the double grid (or beyond range: +-Infinity). */
export function finiteToDouble(value: BigFloat): number {
  if (value.kind === "zero") return 0;
  if (value.kind === "nan") return NaN;
  if (value.kind === "inf") return value.negative ? -Infinity : Infinity;
  if (topBit(value) >= 1024) return value.man < 0n ? -Infinity : Infinity;
  // man fits in 53 bits; scale in two exact steps so no intermediate power of two underflows.
  const first = Math.max(value.exp, -1000);
  return Number(value.man) * 2 ** first * 2 ** (value.exp - first);
}
