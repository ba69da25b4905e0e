// Python complex numbers, only as far as BFCL backends produce them: a negative float raised to a fractional
// power (CPython's float_pow hands that to complex pow: |v|**w * (cos(pi*w) + i sin(pi*w))), printed as
// repr(complex) does ("(1.0000000000000002+1.7320508075688772j)", "2j") and not JSON serialisable.
// cos/sin come from the JavaScript engine; they can differ from the C library's in the last bit.
import { powPositive } from "./bigfloat-elementary.js";
import { pyRaise } from "./errors.js";
import { floatRepr } from "./format.js";
import { isFloat, type PyObject, type PyValue } from "./value.js";

export interface PyComplex extends PyObject {
  readonly pyClass: "complex";
  readonly real: number;
  readonly imag: number;
}

/** repr of one part: float repr without a trailing ".0", as complex_repr formats with 'r' and no flags. */
function partRepr(x: number): string {
  const text = floatRepr(x);
  return text.endsWith(".0") ? text.slice(0, -2) : text;
}

export function pyComplex(real: number, imag: number): PyComplex {
  const self: PyComplex = {
    kind: "object",
    pyClass: "complex",
    real,
    imag,
    pyAttributes: () => [],
    pyRepr: () => {
      if (real === 0 && !Object.is(real, -0)) return `${partRepr(imag)}j`;
      const imagText = partRepr(imag);
      const sign = imagText.startsWith("-") ? "" : "+";
      return `(${partRepr(real)}${sign}${imagText}j)`;
    },
    pyEquals: (other: PyValue) => {
      if (typeof other === "number" || typeof other === "boolean") return imag === 0 && real === Number(other);
      if (isFloat(other)) return imag === 0 && real === other.value;
      return (
        typeof other === "object" &&
        other !== null &&
        "pyClass" in other &&
        other.pyClass === "complex" &&
        (other as PyComplex).real === real &&
        (other as PyComplex).imag === imag
      );
    },
  };
  return self;
}

/** (v + 0j) ** w for a negative finite v and a finite non-integer w, as CPython's _Py_c_pow computes it. */
export function complexPower(v: number, w: number): PyComplex {
  const length = powPositive(-v, w);
  const phase = Math.PI * w;
  const real = length * Math.cos(phase);
  const imag = length * Math.sin(phase);
  if (!Number.isFinite(real) || !Number.isFinite(imag)) pyRaise("OverflowError", "complex exponentiation");
  return pyComplex(real, imag);
}
