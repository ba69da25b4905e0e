// MathAPI against upstream: every expected string below was produced by CPython 3.11 running upstream
// math_api.py (with mpmath 1.3.0) through execute_multi_turn_func_call on the same calls.
import { describe, expect, it } from "vitest";
import { mathApiClass } from "../../../../src/envs/bfcl/apis/math-api.js";
import type { PyDict, PyValue } from "../../../../src/envs/bfcl/py/value.js";
import { call, instantiate, py } from "./harness.js";
import { expectMatchesFuncDocs } from "./scenario-player.js";

/** [method, keyword arguments as JSON (floats keep their ".0"; Infinity allowed), upstream's result string]. */
type Step = readonly [string, string, string];

function check(steps: readonly Step[]): void {
  const instance = instantiate(mathApiClass);
  for (const [name, kwargs, expected] of steps) {
    const args = Object.fromEntries(py(kwargs) as PyDict) as Record<string, PyValue>;
    expect(call(mathApiClass, instance, name, args), `${name}(${kwargs})`).toBe(expected);
  }
}

describe("MathAPI", () => {
  it("has exactly the functions, parameters, required ones and defaults of func_doc/math_api.json", () => {
    expectMatchesFuncDocs(mathApiClass);
  });

  it("is stateless: no public state", () => {
    expect(mathApiClass.stateless).toBe(true);
    expect(instantiate(mathApiClass).publicState()).toEqual([]);
  });

  it("logarithm goes through mpmath: repr digits follow the precision, complex logs, errors become {error: str(e)}", () => {
    check([
      ["logarithm", '{"value": 20, "base": 10, "precision": 2}', "{'result': mpf('1.3027')}"],
      ["logarithm", '{"value": 3287.0, "base": 6.0, "precision": 4}', "{'result': mpf('4.51947')}"],
      ["logarithm", '{"value": 980.0, "base": 20, "precision": 10}', "{'result': mpf('2.299121531134')}"],
      ["logarithm", '{"value": 2, "base": 10, "precision": 15}', "{'result': mpf('0.30102999566398114')}"],
      [
        "logarithm",
        '{"value": 2, "base": 10, "precision": 50}',
        "{'result': mpf('0.30102999566398119521373889472449302676818988146210811')}",
      ],
      ["logarithm", '{"value": 1e-300, "base": 10, "precision": 5}', "{'result': mpf('-300.0')}"],
      ["logarithm", '{"value": 1, "base": 10, "precision": 5}', "{'result': mpf('0.0')}"],
      ["logarithm", '{"value": 10, "base": 1, "precision": 5}', '{"error": ""}'],
      ["logarithm", '{"value": 0, "base": 10, "precision": 5}', "{'result': mpf('-inf')}"],
      ["logarithm", '{"value": -8, "base": 2, "precision": 6}', "{'result': mpc(real='3.0', imag='4.53236008')}"],
      [
        "logarithm",
        '{"value": 8, "base": -2, "precision": 6}',
        "{'result': mpc(real='0.139260978', imag='-0.631180882')}",
      ],
      [
        "logarithm",
        '{"value": -8, "base": -2, "precision": 6}',
        "{'result': mpc(real='1.09284067', imag='-0.420787275')}",
      ],
      ["logarithm", '{"value": "100", "base": "10", "precision": 3}', "{'result': mpf('2.0')}"],
      ["logarithm", '{"value": "abc", "base": 10, "precision": 3}', `{"error": "cannot create mpf from 'abc'"}`],
      ["logarithm", '{"value": [1], "base": 10, "precision": 3}', '{"error": "cannot create mpf from [1]"}'],
      [
        "logarithm",
        '{"value": 10, "base": 10, "precision": null}',
        `{"error": "int() argument must be a string, a bytes-like object or a real number, not 'NoneType'"}`,
      ],
      [
        "logarithm",
        '{"value": 10, "base": 10, "precision": "x"}',
        `{"error": "invalid literal for int() with base 10: 'x'"}`,
      ],
      ["logarithm", '{"value": 100, "base": 10, "precision": 0}', "{'result': mpf('2.0')}"],
      ["logarithm", '{"value": 123456.789, "base": 2.5, "precision": -3}', "{'result': mpf('8.0')}"],
      ["logarithm", '{"value": Infinity, "base": 10, "precision": 5}', "{'result': mpf('+inf')}"],
    ]);
  });

  it("mean sums left to right and divides; a TypeError becomes the 'must be numbers' error", () => {
    check([
      ["mean", '{"numbers": [227.16, 2.552, 227.11, 227.09]}', '{"result": 170.978}'],
      ["mean", '{"numbers": [3288]}', '{"result": 3288.0}'],
      ["mean", '{"numbers": []}', '{"error": "Cannot calculate mean of an empty list"}'],
      ["mean", '{"numbers": [1, "a"]}', '{"error": "All elements in the list must be numbers"}'],
      ["mean", '{"numbers": "abc"}', '{"error": "All elements in the list must be numbers"}'],
      ["mean", '{"numbers": [true, 2]}', '{"result": 1.5}'],
    ]);
  });

  it("standard_deviation is the population deviation", () => {
    check([
      ["standard_deviation", '{"numbers": [100, 95, 85, 90, 88, 92]}', '{"result": 4.85340659285368}'],
      ["standard_deviation", '{"numbers": [1.5]}', '{"result": 0.0}'],
      ["standard_deviation", '{"numbers": []}', '{"error": "Cannot calculate standard deviation of an empty list"}'],
      ["standard_deviation", '{"numbers": [null]}', '{"error": "All elements in the list must be numbers"}'],
    ]);
  });

  it("si_unit_conversion multiplies through meters; an unhashable unit is an uncaught TypeError", () => {
    check([
      ["si_unit_conversion", '{"value": 5, "unit_in": "km", "unit_out": "m"}', '{"result": 5000.0}'],
      ["si_unit_conversion", '{"value": 2.5, "unit_in": "cm", "unit_out": "nm"}', '{"result": 25000000.0}'],
      ["si_unit_conversion", '{"value": 3, "unit_in": "um", "unit_out": "km"}', '{"result": 3e-09}'],
      ["si_unit_conversion", '{"value": "3", "unit_in": "m", "unit_out": "km"}', '{"error": "Value must be a number"}'],
      [
        "si_unit_conversion",
        '{"value": 1, "unit_in": "mile", "unit_out": "km"}',
        `{"error": "Conversion from 'mile' to 'km' is not supported"}`,
      ],
      [
        "si_unit_conversion",
        '{"value": 1, "unit_in": ["km"], "unit_out": "m"}',
        "Error during execution: unhashable type: 'list'",
      ],
    ]);
  });

  it("imperial_si_conversion offsets temperatures and returns same-unit values unchanged", () => {
    check([
      ["imperial_si_conversion", '{"value": 100, "unit_in": "celsius", "unit_out": "fahrenheit"}', '{"result": 212.0}'],
      ["imperial_si_conversion", '{"value": 212, "unit_in": "fahrenheit", "unit_out": "celsius"}', '{"result": 100.0}'],
      ["imperial_si_conversion", '{"value": 3, "unit_in": "miles", "unit_out": "km"}', '{"result": 4.82802}'],
      ["imperial_si_conversion", '{"value": 7, "unit_in": "kg", "unit_out": "kg"}', '{"result": 7}'],
      [
        "imperial_si_conversion",
        '{"value": 7, "unit_in": "kg", "unit_out": "oz"}',
        `{"error": "Conversion from 'kg' to 'oz' is not supported"}`,
      ],
      [
        "imperial_si_conversion",
        '{"value": null, "unit_in": "kg", "unit_out": "lb"}',
        '{"error": "Value must be a number"}',
      ],
    ]);
  });

  it("add and subtract apply Python's + and - (strings and lists concatenate)", () => {
    check([
      ["add", '{"a": 2, "b": 3}', '{"result": 5}'],
      ["add", '{"a": 0.1, "b": 0.2}', '{"result": 0.30000000000000004}'],
      ["add", '{"a": "a", "b": "b"}', '{"result": "ab"}'],
      ["add", '{"a": [1], "b": [2]}', '{"result": [1, 2]}'],
      ["add", '{"a": 1, "b": "2"}', '{"error": "Both inputs must be numbers"}'],
      ["add", '{"a": true, "b": 1}', '{"result": 2}'],
      ["subtract", '{"a": 10, "b": 2.5}', '{"result": 7.5}'],
      ["subtract", '{"a": "a", "b": 1}', '{"error": "Both inputs must be numbers"}'],
    ]);
  });

  it("multiply checks for numbers first; exact int products print all digits", () => {
    check([
      ["multiply", '{"a": 6, "b": 7}', '{"result": 42}'],
      ["multiply", '{"a": 1.5, "b": 4}', '{"result": 6.0}'],
      ["multiply", '{"a": "a", "b": 3}', '{"error": "Both inputs must be numbers"}'],
      ["multiply", '{"a": 4503599627370496, "b": 123456789}', '{"result": 555999948936757949497344}'],
    ]);
  });

  it("divide refuses a zero divisor (0, 0.0, False)", () => {
    check([
      ["divide", '{"a": 7, "b": 2}', '{"result": 3.5}'],
      ["divide", '{"a": 1, "b": 0}', '{"error": "Cannot divide by zero"}'],
      ["divide", '{"a": 1, "b": 0.0}', '{"error": "Cannot divide by zero"}'],
      ["divide", '{"a": 1, "b": false}', '{"error": "Cannot divide by zero"}'],
      ["divide", '{"a": "a", "b": 2}', '{"error": "Both inputs must be numbers"}'],
    ]);
  });

  it("power follows float_pow: ints stay ints, negative bases with fractional exponents give complex, errors propagate", () => {
    check([
      ["power", '{"base": 2, "exponent": 10}', '{"result": 1024}'],
      ["power", '{"base": 2, "exponent": 100}', '{"result": 1267650600228229401496703205376}'],
      ["power", '{"base": 2, "exponent": -2}', '{"result": 0.25}'],
      ["power", '{"base": 2, "exponent": 0.5}', '{"result": 1.4142135623730951}'],
      ["power", '{"base": -8, "exponent": 0.3333333333333333}', "{'result': (1.0000000000000002+1.7320508075688772j)}"],
      ["power", '{"base": -8.0, "exponent": 0.5}', "{'result': (1.7319121124709868e-16+2.8284271247461903j)}"],
      ["power", '{"base": -2.0, "exponent": 3}', '{"result": -8.0}'],
      ["power", '{"base": 0, "exponent": -1}', "Error during execution: 0.0 cannot be raised to a negative power"],
      ["power", '{"base": 10.0, "exponent": 400}', "Error during execution: (34, 'Numerical result out of range')"],
      ["power", '{"base": "a", "exponent": 2}', '{"error": "Both inputs must be numbers"}'],
    ]);
  });

  it("square_root goes through decimal: correctly rounded at the context precision, ideal exponents when exact", () => {
    check([
      ["square_root", '{"number": 2, "precision": 10}', "{'result': Decimal('1.414213562')}"],
      ["square_root", '{"number": 16, "precision": 5}', "{'result': Decimal('4')}"],
      ["square_root", '{"number": 0.25, "precision": 3}', "{'result': Decimal('0.5')}"],
      ["square_root", '{"number": 1e-300, "precision": 5}', "{'result': Decimal('1.0000E-150')}"],
      ["square_root", '{"number": 121, "precision": 1}', "{'result': Decimal('1E+1')}"],
      ["square_root", '{"number": -0.0, "precision": 3}', "{'result': Decimal('-0')}"],
      [
        "square_root",
        '{"number": -4, "precision": 3}',
        '{"error": "Cannot calculate square root of a negative number"}',
      ],
      [
        "square_root",
        '{"number": "4", "precision": 3}',
        '{"error": "Input must be a number or computation resulted in an invalid operation"}',
      ],
      ["square_root", '{"number": 4, "precision": 0}', "Error during execution: valid range for prec is [1, MAX_PREC]"],
      [
        "square_root",
        '{"number": 4, "precision": 2.5}',
        '{"error": "Input must be a number or computation resulted in an invalid operation"}',
      ],
      ["square_root", '{"number": Infinity, "precision": 3}', "{'result': Decimal('Infinity')}"],
    ]);
  });

  it("absolute_value keeps int/float", () => {
    check([
      ["absolute_value", '{"number": -5}', '{"result": 5}'],
      ["absolute_value", '{"number": -0.0}', '{"result": 0.0}'],
      ["absolute_value", '{"number": true}', '{"result": 1}'],
      ["absolute_value", '{"number": "x"}', '{"error": "Input must be a number"}'],
    ]);
  });

  it("round_number uses Python's round (half to even on the exact binary value)", () => {
    check([
      ["round_number", '{"number": 2.675, "decimal_places": 2}', '{"result": 2.67}'],
      ["round_number", '{"number": 2.5}', '{"result": 2.0}'],
      ["round_number", '{"number": 3.5, "decimal_places": null}', '{"result": 4}'],
      ["round_number", '{"number": 1234.5678, "decimal_places": -2}', '{"result": 1200.0}'],
      ["round_number", '{"number": 25, "decimal_places": -1}', '{"result": 20}'],
      [
        "round_number",
        '{"number": 1.5, "decimal_places": 1.0}',
        '{"error": "First input must be a number, second input must be an integer"}',
      ],
      [
        "round_number",
        '{"number": "1.5", "decimal_places": 1}',
        '{"error": "First input must be a number, second input must be an integer"}',
      ],
      ["round_number", '{"number": Infinity, "decimal_places": -400}', '{"result": Infinity}'],
    ]);
  });

  it("percentage refuses a zero whole", () => {
    check([
      ["percentage", '{"part": 1, "whole": 3}', '{"result": 33.33333333333333}'],
      ["percentage", '{"part": 1, "whole": 0}', '{"error": "Whole value cannot be zero"}'],
      ["percentage", '{"part": "1", "whole": 3}', '{"error": "Both inputs must be numbers"}'],
    ]);
  });

  it("min_value and max_value compare with Python's ordering", () => {
    check([
      ["min_value", '{"numbers": [3, 1.5, 2]}', '{"result": 1.5}'],
      ["min_value", '{"numbers": []}', '{"error": "Cannot find minimum of an empty list"}'],
      ["min_value", '{"numbers": [1, "a"]}', '{"error": "All elements in the list must be numbers"}'],
      ["min_value", '{"numbers": "hello"}', '{"result": "e"}'],
      ["max_value", '{"numbers": [3, 1, 3.0]}', '{"result": 3}'],
      ["max_value", '{"numbers": [[1], [2]]}', '{"result": [2]}'],
      ["max_value", '{"numbers": 5}', '{"error": "All elements in the list must be numbers"}'],
    ]);
  });

  it("sum_values adds left to right", () => {
    check([
      [
        "sum_values",
        '{"numbers": [0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1]}',
        '{"result": 0.9999999999999999}',
      ],
      ["sum_values", '{"numbers": [1, 2]}', '{"result": 3}'],
      ["sum_values", '{"numbers": []}', '{"error": "Cannot calculate sum of an empty list"}'],
      ["sum_values", '{"numbers": ["a", "b"]}', '{"error": "All elements in the list must be numbers"}'],
    ]);
  });
});
