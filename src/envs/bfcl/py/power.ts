// Python's ** on any PyValue (operators.ts has + - * / %): int ** non-negative int stays an int, anything else
// goes through CPython's float_pow (0.0 ** negative raises ZeroDivisionError, a finite overflow raises
// OverflowError, a negative base with a fractional exponent hands over to complex pow). The C library's pow is
// replaced by a correctly rounded one; glibc's agrees except in rare last-bit cases (about 1 in 2000 random
// non-integer exponents) and on exact ties such as 10.0 ** 23.
// Limitation: ints live in doubles, so int powers beyond 2**53 are rounded; beyond 1e308 they raise.
import { powPositive } from "./bigfloat-elementary.js";
import { complexPower } from "./complex.js";
import { PyException } from "./errors.js";
import { asNumber } from "./operators.js";
import { pyFloat, pyTypeName, type PyValue } from "./value.js";

const isOddInteger = (x: number): boolean => Number.isInteger(x) && Math.abs(x % 2) === 1;

/** CPython's float_pow on two doubles. */
function floatPower(v: number, w: number): PyValue {
  if (w === 0) return pyFloat(1);
  if (Number.isNaN(v)) return pyFloat(v);
  if (Number.isNaN(w)) return pyFloat(v === 1 ? 1 : w);
  if (!Number.isFinite(w)) {
    const magnitude = Math.abs(v);
    if (magnitude === 1) return pyFloat(1);
    return pyFloat(w > 0 === magnitude > 1 ? Infinity : 0);
  }
  if (!Number.isFinite(v)) {
    if (w > 0) return pyFloat(isOddInteger(w) ? v : Math.abs(v));
    return pyFloat(isOddInteger(w) ? (v < 0 ? -0 : 0) : 0);
  }
  if (v === 0) {
    if (w < 0) throw new PyException("ZeroDivisionError", "0.0 cannot be raised to a negative power");
    return pyFloat(isOddInteger(w) ? v : 0);
  }
  let negate = false;
  let base = v;
  if (v < 0) {
    if (!Number.isInteger(w)) return complexPower(v, w);
    base = -v;
    negate = isOddInteger(w);
  }
  if (base === 1) return pyFloat(negate ? -1 : 1);
  const result = powPositive(base, w);
  if (!Number.isFinite(result)) throw new PyException("OverflowError", "(34, 'Numerical result out of range')");
  return pyFloat(negate ? -result : result);
}

/** int ** int for a non-negative exponent. */
function intPower(base: number, exponent: number): number {
  if (base === 0 || base === 1) return exponent === 0 ? 1 : base;
  if (base === -1) return exponent % 2 === 0 ? 1 : -1;
  const digits = exponent * Math.log10(Math.abs(base));
  // CPython computes the exact int, then refuses to print more than 4300 digits (json.dumps and str() both fail).
  if (digits > 4300)
    throw new PyException(
      "ValueError",
      "Exceeds the limit (4300 digits) for integer string conversion; use sys.set_int_max_str_digits() to increase the limit",
    );
  if (digits > 308) throw new PyException("OverflowError", "int result beyond 1e308: budgetrl keeps ints in doubles");
  return Number(BigInt(base) ** BigInt(exponent));
}

/** a ** b. */
export function pyPower(a: PyValue, b: PyValue): PyValue {
  const x = asNumber(a);
  const y = asNumber(b);
  if (x === undefined || y === undefined) {
    throw new PyException(
      "TypeError",
      `unsupported operand type(s) for ** or pow(): '${pyTypeName(a)}' and '${pyTypeName(b)}'`,
    );
  }
  if (typeof x === "number" && typeof y === "number" && y >= 0) return intPower(x, y);
  return floatPower(typeof x === "number" ? x : x.value, typeof y === "number" ? y : y.value);
}
