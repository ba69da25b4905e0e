// MathAPI (upstream math_api.py): stateless arithmetic. Each method applies Python's operators to whatever the
// model passed and catches the exception types upstream catches (mostly TypeError), so "add('a', 'b')" is
// {"result": "ab"} and "power(0, -1)" is an uncaught ZeroDivisionError, as upstream. logarithm goes through
// an mpmath emulation (its result prints as "{'result': mpf('1.3027')}"), square_root through a decimal
// emulation ("{'result': Decimal('1.414213562')}"). Float sums add left to right (CPython 3.11; 3.12 switched
// sum() of floats to compensated summation, which can change the last digit of mean/standard_deviation).
import { pyRound } from "../py/arith.js";
import { pyLen } from "../py/container-methods.js";
import { dictHas, pyIterate } from "../py/containers.js";
import { decimalObject, decimalPrecision, decimalSqrt, toDecimal } from "../py/decimal.js";
import { PyException, pyRaise } from "../py/errors.js";
import { pyStr } from "../py/format.js";
import { mpConvert, mpDivide, mpLn, mpObject, setDps } from "../py/mpmath.js";
import { asNumber, pyAbs, pyBinary, pyCompare } from "../py/operators.js";
import { pyPower } from "../py/power.js";
import { pyMax, pyMin, pySum } from "../py/reductions.js";
import { pyGetItem } from "../py/subscript.js";
import { isFloat, pyDictOf, pyEquals, pyFloat, pyTruthy, pyTypeName, type PyDict, type PyValue } from "../py/value.js";
import { defineBfclClass, type BfclInstance, type MethodSpec } from "./backend-class.js";
import { argument, errorResult } from "./backend-support.js";

export type MathApiInstance = BfclInstance;

type Method = MethodSpec<MathApiInstance>;

const result = (value: PyValue): PyDict => pyDictOf({ result: value });

/** try: body() except <types>: return fallback (other exceptions propagate, as upstream's narrow excepts do). */
function guarded(types: readonly string[], body: () => PyValue, fallback: (error: PyException) => PyValue): PyValue {
  try {
    return body();
  } catch (caught) {
    if (caught instanceof PyException && (types.length === 0 || types.includes(caught.pyType))) return fallback(caught);
    throw caught;
  }
}

/** A method of one or two arguments wrapping an operator in `try ... except TypeError`. */
function operatorMethod(names: readonly string[], apply: (...values: PyValue[]) => PyValue, message: string): Method {
  return {
    params: names.map((name) => ({ name })),
    run: (_instance, args) =>
      guarded(
        ["TypeError"],
        () => result(apply(...names.map((name) => argument(args, name)))),
        () => errorResult(message),
      ),
  };
}

/** A method over a list of numbers: empty check on truthiness, then a reduction under `except TypeError`. */
function listMethod(emptyMessage: string, reduce: (numbers: PyValue) => PyValue): Method {
  return {
    params: [{ name: "numbers" }],
    run(_instance, args) {
      const numbers = argument(args, "numbers");
      if (!pyTruthy(numbers)) return errorResult(emptyMessage);
      return guarded(
        ["TypeError"],
        () => result(reduce(numbers)),
        () => errorResult("All elements in the list must be numbers"),
      );
    },
  };
}

const logarithm: Method = {
  params: [{ name: "value" }, { name: "base" }, { name: "precision" }],
  run(_instance, args) {
    return guarded(
      [],
      () => {
        const prec = setDps(argument(args, "precision"));
        const numerator = mpLn(mpConvert(argument(args, "value"), prec), prec);
        const denominator = mpLn(mpConvert(argument(args, "base"), prec), prec);
        return result(mpObject(mpDivide(numerator, denominator, prec), prec));
      },
      (caught) => errorResult(caught.text),
    );
  },
};

const mean = (numbers: PyValue): PyValue => pyBinary("/", pySum(numbers), pyLen(numbers));

function standardDeviation(numbers: PyValue): PyValue {
  const average = mean(numbers);
  const squares = pyIterate(numbers).map((x) => pyPower(pyBinary("-", x, average), 2));
  const variance = asNumber(pyBinary("/", pySum(squares), pyLen(numbers)));
  const value = variance === undefined ? NaN : typeof variance === "number" ? variance : variance.value;
  if (value < 0) return pyRaise("ValueError", "math domain error");
  return pyFloat(Math.sqrt(value));
}

const TO_METERS: PyDict = pyDictOf({
  km: 1000,
  m: 1,
  cm: pyFloat(0.01),
  mm: pyFloat(0.001),
  um: pyFloat(1e-6),
  nm: pyFloat(1e-9),
});
const FROM_METERS: PyDict = new Map([...TO_METERS].map(([unit, factor]) => [unit, pyBinary("/", 1, factor)]));

const isRealNumber = (value: PyValue): boolean =>
  typeof value === "number" || typeof value === "boolean" || isFloat(value);

const siUnitConversion: Method = {
  params: [{ name: "value" }, { name: "unit_in" }, { name: "unit_out" }],
  run(_instance, args) {
    const value = argument(args, "value");
    const unitIn = argument(args, "unit_in");
    const unitOut = argument(args, "unit_out");
    if (!isRealNumber(value)) return errorResult("Value must be a number");
    if (!dictHas(TO_METERS, unitIn) || !dictHas(FROM_METERS, unitOut)) {
      return errorResult(`Conversion from '${pyStr(unitIn)}' to '${pyStr(unitOut)}' is not supported`);
    }
    const meters = pyBinary("*", value, pyGetItem(TO_METERS, unitIn));
    return result(pyBinary("*", meters, pyGetItem(FROM_METERS, unitOut)));
  },
};

const IMPERIAL: PyDict = pyDictOf({
  cm_to_in: pyFloat(0.393701),
  in_to_cm: pyFloat(2.54),
  m_to_ft: pyFloat(3.28084),
  ft_to_m: pyFloat(0.3048),
  m_to_yd: pyFloat(1.09361),
  yd_to_m: pyFloat(0.9144),
  km_to_miles: pyFloat(0.621371),
  miles_to_km: pyFloat(1.60934),
  kg_to_lb: pyFloat(2.20462),
  lb_to_kg: pyFloat(0.453592),
  celsius_to_fahrenheit: pyFloat(1.8),
  fahrenheit_to_celsius: pyFloat(5 / 9),
});

const imperialSiConversion: Method = {
  params: [{ name: "value" }, { name: "unit_in" }, { name: "unit_out" }],
  run(_instance, args) {
    const value = argument(args, "value");
    const unitIn = argument(args, "unit_in");
    const unitOut = argument(args, "unit_out");
    if (!isRealNumber(value)) return errorResult("Value must be a number");
    if (pyEquals(unitIn, unitOut)) return result(value);
    const key = `${pyStr(unitIn)}_to_${pyStr(unitOut)}`;
    if (!dictHas(IMPERIAL, key))
      return errorResult(`Conversion from '${pyStr(unitIn)}' to '${pyStr(unitOut)}' is not supported`);
    const factor = pyGetItem(IMPERIAL, key);
    if (pyEquals(unitIn, "celsius") && pyEquals(unitOut, "fahrenheit"))
      return result(pyBinary("+", pyBinary("*", value, factor), 32));
    if (pyEquals(unitIn, "fahrenheit") && pyEquals(unitOut, "celsius"))
      return result(pyBinary("*", pyBinary("-", value, 32), factor));
    return result(pyBinary("*", value, factor));
  },
};

const multiply: Method = {
  params: [{ name: "a" }, { name: "b" }],
  run(_instance, args) {
    const a = argument(args, "a");
    const b = argument(args, "b");
    if (!isRealNumber(a) || !isRealNumber(b)) return errorResult("Both inputs must be numbers");
    return result(pyBinary("*", a, b));
  },
};

const divide: Method = {
  params: [{ name: "a" }, { name: "b" }],
  run(_instance, args) {
    const b = argument(args, "b");
    return guarded(
      ["TypeError"],
      () => {
        if (pyEquals(b, 0)) return errorResult("Cannot divide by zero");
        return result(pyBinary("/", argument(args, "a"), b));
      },
      () => errorResult("Both inputs must be numbers"),
    );
  },
};

const squareRoot: Method = {
  params: [{ name: "number" }, { name: "precision" }],
  run(_instance, args) {
    const number = argument(args, "number");
    return guarded(
      ["TypeError", "InvalidOperation"],
      () => {
        if (pyCompare("<", number, 0)) return errorResult("Cannot calculate square root of a negative number");
        const prec = decimalPrecision(argument(args, "precision"));
        return result(decimalObject(decimalSqrt(toDecimal(number), prec)));
      },
      () => errorResult("Input must be a number or computation resulted in an invalid operation"),
    );
  },
};

/** round(number, ndigits) with Python's types, argument checks and float range short-cuts. */
function pythonRound(number: PyValue, ndigits: PyValue): PyValue {
  const x = asNumber(number);
  if (x === undefined) return pyRaise("TypeError", `type ${pyTypeName(number)} doesn't define __round__ method`);
  if (ndigits === null) return pyRound(x);
  const digits = typeof ndigits === "boolean" ? Number(ndigits) : ndigits;
  if (typeof digits !== "number")
    return pyRaise("TypeError", `'${pyTypeName(ndigits)}' object cannot be interpreted as an integer`);
  if (typeof x === "number") return digits < -30 ? 0 : pyRound(x, digits);
  if (!Number.isFinite(x.value) || digits > 323) return x;
  if (digits < -308) return pyFloat(0 * x.value);
  return pyRound(x, digits);
}

const roundNumber: Method = {
  params: [{ name: "number" }, { name: "decimal_places", default: 0 }],
  run: (_instance, args) =>
    guarded(
      ["TypeError"],
      () => result(pythonRound(argument(args, "number"), argument(args, "decimal_places"))),
      () => errorResult("First input must be a number, second input must be an integer"),
    ),
};

const percentage: Method = {
  params: [{ name: "part" }, { name: "whole" }],
  run(_instance, args) {
    const whole = argument(args, "whole");
    return guarded(
      ["TypeError"],
      () => {
        if (pyEquals(whole, 0)) return errorResult("Whole value cannot be zero");
        return result(pyBinary("*", pyBinary("/", argument(args, "part"), whole), 100));
      },
      () => errorResult("Both inputs must be numbers"),
    );
  },
};

export const mathApiClass = defineBfclClass<MathApiInstance>({
  className: "MathAPI",
  moduleName: "math_api",
  stateless: true,
  create: () => ({ loadScenario: () => undefined, publicState: () => [] }),
  methods: {
    logarithm,
    mean: listMethod("Cannot calculate mean of an empty list", mean),
    standard_deviation: listMethod("Cannot calculate standard deviation of an empty list", standardDeviation),
    si_unit_conversion: siUnitConversion,
    imperial_si_conversion: imperialSiConversion,
    add: operatorMethod(["a", "b"], (a, b) => pyBinary("+", a, b), "Both inputs must be numbers"),
    subtract: operatorMethod(["a", "b"], (a, b) => pyBinary("-", a, b), "Both inputs must be numbers"),
    multiply,
    divide,
    power: operatorMethod(
      ["base", "exponent"],
      (base, exponent) => pyPower(base, exponent),
      "Both inputs must be numbers",
    ),
    square_root: squareRoot,
    absolute_value: operatorMethod(["number"], (number) => pyAbs(number), "Input must be a number"),
    round_number: roundNumber,
    percentage,
    min_value: listMethod("Cannot find minimum of an empty list", pyMin),
    max_value: listMethod("Cannot find maximum of an empty list", pyMax),
    sum_values: listMethod("Cannot calculate sum of an empty list", pySum),
  },
});
