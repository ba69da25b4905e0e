// format(x, ".Nf") (f-string `{x:.2f}`) exactly as CPython prints it: the exact binary value rounded half-to-even
// to N decimals, all integer digits written out (no exponent), "inf"/"nan" spelled out. JS toFixed rounds ties
// up and switches to exponent form from 1e21, so it cannot be used directly.
import { PyException } from "./errors.js";
import { isFloat, pyTypeName, type PyValue } from "./value.js";

/** The float as mantissa * 2^exponent with an integer mantissa (exact). */
function decompose(x: number): { mantissa: bigint; exponent: number } {
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, Math.abs(x));
  const high = view.getUint32(0);
  const low = view.getUint32(4);
  const biased = (high >>> 20) & 0x7ff;
  const fraction = (BigInt(high & 0xfffff) << 32n) | BigInt(low);
  return biased === 0
    ? { mantissa: fraction, exponent: -1074 }
    : { mantissa: fraction | (1n << 52n), exponent: biased - 1075 };
}

/** Round |x| * 10^digits to an integer, half to even, exactly. */
function scaledInteger(x: number, digits: number): bigint {
  const { mantissa, exponent } = decompose(x);
  let numerator = mantissa * 10n ** BigInt(digits);
  let denominator = 1n;
  if (exponent >= 0) numerator <<= BigInt(exponent);
  else denominator <<= BigInt(-exponent);
  const quotient = numerator / denominator;
  const twiceRemainder = 2n * (numerator - quotient * denominator);
  if (twiceRemainder > denominator || (twiceRemainder === denominator && quotient % 2n === 1n)) return quotient + 1n;
  return quotient;
}

/** The text of a float with exactly `digits` decimals. */
export function fixedText(x: number, digits: number): string {
  if (Number.isNaN(x)) return "nan";
  if (!Number.isFinite(x)) return x > 0 ? "inf" : "-inf";
  const sign = x < 0 || Object.is(x, -0) ? "-" : "";
  const text = scaledInteger(x, digits)
    .toString()
    .padStart(digits + 1, "0");
  const whole = text.slice(0, text.length - digits);
  return digits === 0 ? `${sign}${whole}` : `${sign}${whole}.${text.slice(text.length - digits)}`;
}

/** format(value, f".{digits}f") for an int, float or bool; ValueError for other types as CPython words it. */
export function formatFixed(value: PyValue, digits: number): string {
  if (typeof value === "number") return fixedText(value, digits);
  if (typeof value === "boolean") return fixedText(value ? 1 : 0, digits);
  if (isFloat(value)) return fixedText(value.value, digits);
  throw new PyException("ValueError", `Unknown format code 'f' for object of type '${pyTypeName(value)}'`);
}
