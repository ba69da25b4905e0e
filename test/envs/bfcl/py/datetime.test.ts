// datetime.strptime / strftime / timedelta results and error texts as CPython 3.11 prints them.
import { describe, expect, it } from "vitest";
import {
  addSeconds,
  compareDateTimes,
  DATETIME_MAX,
  DATETIME_MIN,
  naiveDateTime,
  pyStrftime,
  pyStrptime,
} from "../../../../src/envs/bfcl/py/datetime.js";
import { raised } from "./raised.js";

const FULL = "%Y-%m-%d %H:%M:%S";

describe("pyStrptime", () => {
  it("parses what CPython's regexes accept (single digits, any whitespace run, digits of any script)", () => {
    expect(pyStrptime("2024-09-01 10:30:00", FULL)).toEqual(naiveDateTime(2024, 9, 1, 10, 30, 0));
    expect(pyStrptime("2024-9-1 7:5:3", FULL)).toEqual(naiveDateTime(2024, 9, 1, 7, 5, 3));
    expect(pyStrptime("2024-09-01\t\n10:30:00", FULL)).toEqual(naiveDateTime(2024, 9, 1, 10, 30, 0));
    expect(pyStrptime("2024-01- 5", "%Y-%m-%d")).toEqual(naiveDateTime(2024, 1, 5));
    expect(pyStrptime("\u0662\u0660\u0662\u0664-01-01", "%Y-%m-%d")).toEqual(naiveDateTime(2024, 1, 1));
    expect(pyStrptime("2024-02-29", "%Y-%m-%d")).toEqual(naiveDateTime(2024, 2, 29));
  });

  it("raises CPython's errors in CPython's order", () => {
    expect(raised(() => pyStrptime("2024/01/01", "%Y-%m-%d"))).toBe(
      "ValueError: time data '2024/01/01' does not match format '%Y-%m-%d'",
    );
    expect(raised(() => pyStrptime("2024-01-01x", "%Y-%m-%d"))).toBe("ValueError: unconverted data remains: x");
    expect(raised(() => pyStrptime("2023-02-29", "%Y-%m-%d"))).toBe("ValueError: day is out of range for month");
    expect(raised(() => pyStrptime("0000-01-01", "%Y-%m-%d"))).toBe("ValueError: year 0 is out of range");
    expect(raised(() => pyStrptime("2024-13-01", "%Y-%m-%d"))).toBe(
      "ValueError: time data '2024-13-01' does not match format '%Y-%m-%d'",
    );
    expect(raised(() => pyStrptime("2024-01-01 10:00:60", FULL))).toBe("ValueError: second must be in 0..59");
    expect(raised(() => pyStrptime("2024-09-01 24:00:00", FULL))).toBe(
      `ValueError: time data '2024-09-01 24:00:00' does not match format '${FULL}'`,
    );
    expect(raised(() => pyStrptime(" 2024-01-01", "%Y-%m-%d"))).toBe(
      "ValueError: time data ' 2024-01-01' does not match format '%Y-%m-%d'",
    );
    expect(raised(() => pyStrptime(5, "%Y-%m-%d"))).toBe("TypeError: strptime() argument 1 must be str, not int");
    expect(raised(() => pyStrptime(null, "%Y-%m-%d"))).toBe("TypeError: strptime() argument 1 must be str, not None");
  });
});

describe("arithmetic and formatting", () => {
  it("adds seconds across day, month, year and leap-day boundaries", () => {
    expect(addSeconds(naiveDateTime(2024, 12, 31, 23, 59, 59), 2)).toEqual(naiveDateTime(2025, 1, 1, 0, 0, 1));
    expect(addSeconds(naiveDateTime(2024, 2, 28, 12), 86_400)).toEqual(naiveDateTime(2024, 2, 29, 12));
  });

  it("compares and formats as strftime does", () => {
    expect(compareDateTimes(DATETIME_MIN, naiveDateTime(2024, 1, 1))).toBeLessThan(0);
    expect(compareDateTimes(DATETIME_MAX, naiveDateTime(9999, 12, 31, 23, 59, 59))).toBeGreaterThan(0);
    expect(compareDateTimes(naiveDateTime(2024, 1, 1), naiveDateTime(2024, 1, 1))).toBe(0);
    expect(pyStrftime(naiveDateTime(2024, 9, 1, 10, 30, 5), FULL)).toBe("2024-09-01 10:30:05");
    expect(pyStrftime(naiveDateTime(2024, 9, 1, 0, 5), "%I:%M %p")).toBe("12:05 AM");
    expect(pyStrftime(naiveDateTime(2024, 9, 1, 13, 5), "%I:%M %p")).toBe("01:05 PM");
    expect(pyStrftime(naiveDateTime(2024, 9, 1, 12, 0), "%I:%M %p")).toBe("12:00 PM");
  });
});
