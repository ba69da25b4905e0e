// The slice of Python's decimal module that MathAPI.square_root reaches: `getcontext().prec = n` (with its
// TypeError/ValueError), Decimal(int | float) (exact), Decimal.sqrt() (correctly rounded, half-even, ideal
// exponent for exact roots, as the General Decimal Arithmetic spec and CPython's _pydecimal define it) and
// repr() ("Decimal('1.4142')", "Decimal('1.0000E+150')"). A Decimal is not JSON serialisable, so upstream's
// result string is str() of the result dict.
import { bitLength, fromDouble } from "./bigfloat.js";
import { pyRaise } from "./errors.js";
import { isFloat, isPyObject, pyTypeName, type PyObject, type PyValue } from "./value.js";

/** The largest context precision we evaluate; CPython allows up to 999999999999999999 (and then runs out of time). */
export const MAX_DECIMAL_PREC = 100_000;

export type DecimalValue =
  | { readonly kind: "finite"; readonly negative: boolean; readonly coefficient: bigint; readonly exponent: number }
  | { readonly kind: "infinity"; readonly negative: boolean }
  | { readonly kind: "nan" };

/** `getcontext().prec = value`: an int (bool allowed) in [1, MAX_PREC]. */
export function decimalPrecision(value: PyValue): number {
  if (typeof value === "boolean") value = value ? 1 : 0;
  if (typeof value !== "number") return pyRaise("TypeError", "an integer is required");
  if (value < 1) return pyRaise("ValueError", "valid range for prec is [1, MAX_PREC]");
  if (value > MAX_DECIMAL_PREC)
    return pyRaise("ValueError", `precision ${value} is beyond budgetrl's decimal emulation (max ${MAX_DECIMAL_PREC})`);
  return value;
}

/** Decimal(value) for an int, bool or float; TypeError for anything else. */
export function toDecimal(value: PyValue): DecimalValue {
  if (typeof value === "boolean") return { kind: "finite", negative: false, coefficient: value ? 1n : 0n, exponent: 0 };
  if (typeof value === "number")
    return { kind: "finite", negative: value < 0, coefficient: BigInt(Math.abs(value)), exponent: 0 };
  if (isFloat(value)) return fromFloat(value.value);
  return pyRaise("TypeError", `conversion from ${pyTypeName(value)} to Decimal is not supported`);
}

function fromFloat(x: number): DecimalValue {
  if (Number.isNaN(x)) return { kind: "nan" };
  if (!Number.isFinite(x)) return { kind: "infinity", negative: x < 0 };
  const negative = x < 0 || Object.is(x, -0);
  const exact = fromDouble(Math.abs(x));
  if (exact.kind !== "finite") return { kind: "finite", negative, coefficient: 0n, exponent: 0 };
  if (exact.exp >= 0) return { kind: "finite", negative, coefficient: exact.man << BigInt(exact.exp), exponent: 0 };
  // man / 2^k == man * 5^k / 10^k
  const k = -exact.exp;
  return { kind: "finite", negative, coefficient: exact.man * 5n ** BigInt(k), exponent: -k };
}

function integerSqrt(n: bigint): bigint {
  if (n < 2n) return n;
  let x = 1n << BigInt(Math.ceil(bitLength(n) / 2));
  for (;;) {
    const next = (x + n / x) >> 1n;
    if (next >= x) return x;
    x = next;
  }
}

/** Round a coefficient to prec digits, half to even (Decimal's _fix under ROUND_HALF_EVEN). */
function fitPrecision(coefficient: bigint, exponent: number, prec: number): { coefficient: bigint; exponent: number } {
  const digits = coefficient.toString().length;
  if (digits <= prec) return { coefficient, exponent };
  const drop = digits - prec;
  const divisor = 10n ** BigInt(drop);
  let kept = coefficient / divisor;
  const remainder = coefficient - kept * divisor;
  const twice = 2n * remainder;
  if (twice > divisor || (twice === divisor && kept % 2n === 1n)) kept += 1n;
  if (kept.toString().length > prec) return { coefficient: kept / 10n, exponent: exponent + drop + 1 };
  return { coefficient: kept, exponent: exponent + drop };
}

/** Decimal.sqrt() at context precision prec; InvalidOperation for negative non-zero input. */
export function decimalSqrt(x: DecimalValue, prec: number): DecimalValue {
  if (x.kind === "nan") return x;
  if (x.kind === "infinity")
    return x.negative ? pyRaise("InvalidOperation", "[<class 'decimal.InvalidOperation'>]") : x;
  if (x.coefficient === 0n)
    return { kind: "finite", negative: x.negative, coefficient: 0n, exponent: Math.floor(x.exponent / 2) };
  if (x.negative) return pyRaise("InvalidOperation", "[<class 'decimal.InvalidOperation'>]");
  const working = prec + 1;
  const length = x.coefficient.toString().length;
  let e = Math.floor(x.exponent / 2);
  const odd = x.exponent % 2 !== 0;
  let c = odd ? x.coefficient * 10n : x.coefficient;
  const l = odd ? (length >> 1) + 1 : (length + 1) >> 1;
  const shift = working - l;
  let exact: boolean;
  if (shift >= 0) {
    c *= 100n ** BigInt(shift);
    exact = true;
  } else {
    const divisor = 100n ** BigInt(-shift);
    exact = c % divisor === 0n;
    c /= divisor;
  }
  e -= shift;
  let n = integerSqrt(c);
  exact = exact && n * n === c;
  if (exact) {
    if (shift >= 0) n /= 10n ** BigInt(shift);
    else n *= 10n ** BigInt(-shift);
    e += shift;
  } else if (n % 5n === 0n) n += 1n;
  const fitted = fitPrecision(n, e, prec);
  return { kind: "finite", negative: false, ...fitted };
}

/** str(Decimal): to-scientific-string. */
export function decimalToString(x: DecimalValue): string {
  if (x.kind === "nan") return "NaN";
  if (x.kind === "infinity") return x.negative ? "-Infinity" : "Infinity";
  const sign = x.negative ? "-" : "";
  const digits = x.coefficient.toString();
  const leftDigits = x.exponent + digits.length;
  const dotPlace = x.exponent <= 0 && leftDigits > -6 ? leftDigits : 1;
  let body: string;
  if (dotPlace <= 0) body = `0.${"0".repeat(-dotPlace)}${digits}`;
  else if (dotPlace >= digits.length) body = digits + "0".repeat(dotPlace - digits.length);
  else body = `${digits.slice(0, dotPlace)}.${digits.slice(dotPlace)}`;
  const exponent = leftDigits - dotPlace;
  return sign + body + (exponent === 0 ? "" : `E${exponent > 0 ? "+" : ""}${exponent}`);
}

/** A Decimal as a Python object (repr "Decimal('...')"). */
export function decimalObject(x: DecimalValue): PyObject {
  const text = `Decimal('${decimalToString(x)}')`;
  return {
    kind: "object",
    pyClass: "Decimal",
    pyAttributes: () => [],
    pyRepr: () => text,
    pyEquals: (other) => isPyObject(other) && other.pyClass === "Decimal" && other.pyRepr() === text,
  };
}
