// Python arithmetic on int/float values where the result type matters for printing: int op int stays int,
// anything with a float gives a float, true division always gives a float, and round() is correctly rounded
// from the exact binary value with ties to even (round(2.675, 2) == 2.67, round(0.125, 2) == 0.12).
import { PyException } from "./errors.js";
import { isFloat, pyFloat, type PyFloat } from "./value.js";

export type PyNumber = number | PyFloat;

const valueOf = (x: PyNumber): number => (typeof x === "number" ? x : x.value);
const wrap = (x: number, asFloat: boolean): PyNumber => (asFloat ? pyFloat(x) : x);

export function pyAdd(a: PyNumber, b: PyNumber): PyNumber {
  return wrap(valueOf(a) + valueOf(b), isFloat(a) || isFloat(b));
}

export function pySub(a: PyNumber, b: PyNumber): PyNumber {
  return wrap(valueOf(a) - valueOf(b), isFloat(a) || isFloat(b));
}

export function pyMul(a: PyNumber, b: PyNumber): PyNumber {
  return wrap(valueOf(a) * valueOf(b), isFloat(a) || isFloat(b));
}

/** a / b (always a float); ZeroDivisionError as Python 3.11 words it. */
export function pyTrueDiv(a: PyNumber, b: PyNumber): PyFloat {
  if (valueOf(b) === 0)
    throw new PyException(
      "ZeroDivisionError",
      isFloat(a) || isFloat(b) ? "float division by zero" : "division by zero",
    );
  return pyFloat(valueOf(a) / valueOf(b));
}

/** float(x) of a number. */
export function toPyFloat(x: PyNumber): PyFloat {
  return pyFloat(valueOf(x));
}

function decompose(x: number): { mantissa: bigint; exponent: number } {
  // x = mantissa * 2^exponent exactly, with an integer mantissa.
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, x);
  const high = view.getUint32(0);
  const low = view.getUint32(4);
  const biased = (high >>> 20) & 0x7ff;
  let mantissa = (BigInt(high & 0xfffff) << 32n) | BigInt(low);
  let exponent: number;
  if (biased === 0) exponent = -1074;
  else {
    mantissa |= 1n << 52n;
    exponent = biased - 1075;
  }
  if (high >>> 31) mantissa = -mantissa;
  return { mantissa, exponent };
}

function floorDiv(a: bigint, b: bigint): bigint {
  const q = a / b;
  return a % b !== 0n && a < 0n !== b < 0n ? q - 1n : q;
}

/** round(x, ndigits) for a float x: exact, half-to-even, like CPython's float.__round__. */
export function roundFloat(x: number, ndigits: number): number {
  if (!Number.isFinite(x) || x === 0) return x;
  const { mantissa, exponent } = decompose(x);
  // scaled = mantissa * 2^exponent * 10^ndigits = num / den
  let num = mantissa;
  let den = 1n;
  if (exponent >= 0) num <<= BigInt(exponent);
  else den <<= BigInt(-exponent);
  if (ndigits >= 0) num *= 10n ** BigInt(ndigits);
  else den *= 10n ** BigInt(-ndigits);
  let q = floorDiv(num, den);
  const twiceRemainder = 2n * (num - q * den);
  if (twiceRemainder > den || (twiceRemainder === den && q % 2n !== 0n)) q += 1n;
  const result = Number(ndigits >= 0 ? `${q}e-${ndigits}` : `${q}e${-ndigits}`);
  return result === 0 && x < 0 ? -0 : result;
}

/** round(x) or round(x, ndigits), with Python's result types (round(float) with no ndigits is an int). */
export function pyRound(x: PyNumber, ndigits?: number): PyNumber {
  if (typeof x === "number") {
    if (ndigits === undefined || ndigits >= 0) return x;
    return roundFloat(x, ndigits);
  }
  if (ndigits === undefined) {
    if (!Number.isFinite(x.value))
      throw new PyException(
        Number.isNaN(x.value) ? "ValueError" : "OverflowError",
        Number.isNaN(x.value) ? "cannot convert float NaN to integer" : "cannot convert float infinity to integer",
      );
    return roundFloat(x.value, 0);
  }
  return pyFloat(roundFloat(x.value, ndigits));
}
