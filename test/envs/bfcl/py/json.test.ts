// json.loads as Python does it: ints and floats kept apart, dicts in key order, errors with their position.
import { describe, expect, it } from "vitest";
import { parsePyJson, parsePyJsonLines, PyJsonError } from "../../../../src/envs/bfcl/py/json.js";
import { pyRepr } from "../../../../src/envs/bfcl/py/format.js";

function failure(text: string): { message: string; position: number } {
  try {
    parsePyJson(text);
  } catch (error) {
    if (error instanceof PyJsonError) return { message: error.message, position: error.position };
    throw error;
  }
  throw new Error(`parsed: ${text}`);
}

describe("parsePyJson", () => {
  it("keeps ints and floats apart and dicts in key order", () => {
    expect(
      pyRepr(parsePyJson('{"b": 10000.0, "a": [1, -0, 2e3, 1.5E-2], "c": {"z": null, "y": true, "x": false}}')),
    ).toBe("{'b': 10000.0, 'a': [1, 0, 2000.0, 0.015], 'c': {'z': None, 'y': True, 'x': False}}");
    expect(pyRepr(parsePyJson(" [NaN, Infinity, -Infinity, {}, []] "))).toBe("[nan, inf, -inf, {}, []]");
  });

  it("reads every escape", () => {
    expect(parsePyJson('"a\\"b\\\\c\\/d\\b\\f\\n\\r\\t\\u00e9\\ud83d\\ude00"')).toBe('a"b\\c/d\b\f\n\r\té😀');
  });

  it("gives a fresh value for every float keyword", () => {
    const [a, b] = parsePyJson("[NaN, NaN]") as unknown[];
    expect(a).not.toBe(b);
  });

  it("names what is wrong and where", () => {
    expect(failure('"abc')).toEqual({ message: "unterminated string at position 1", position: 1 });
    expect(failure('"\\q"')).toEqual({ message: "bad escape at position 3", position: 3 });
    expect(failure('"\\u12G4"')).toEqual({ message: "bad \\u escape at position 3", position: 3 });
    expect(failure('{"a" 1}')).toEqual({ message: "expected ':' at position 6", position: 6 });
    expect(failure("{1: 2}")).toEqual({ message: "expected a string key at position 1", position: 1 });
    expect(failure('{"a": 1,}')).toEqual({ message: "expected a string key at position 8", position: 8 });
    expect(failure("[1, 2")).toEqual({ message: "expected ',' or ']' at position 6", position: 6 });
    expect(failure("tru")).toEqual({ message: "bad number at position 0", position: 0 });
    expect(failure("01")).toEqual({ message: "extra data at position 1", position: 1 });
    expect(failure("")).toEqual({ message: "bad number at position 0", position: 0 });
  });
});

describe("parsePyJsonLines", () => {
  it("reads one value per non-empty line and names the line of an error", () => {
    expect(parsePyJsonLines('{"a": 1}\n\n[2.0]\n')).toEqual([new Map([["a", 1]]), [{ kind: "float", value: 2 }]]);
    expect(() => parsePyJsonLines('1\n{"a":}\n', "data.json")).toThrow("data.json, line 2: bad number at position 5");
  });
});
