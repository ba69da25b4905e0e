// The spans of JSON values in model text: ends found by brackets and strings, every span checked by JSON.parse.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { jsonValueEnd, objectMembers } from "../../src/policies/json-spans.js";

describe("jsonValueEnd", () => {
  it("finds the end of one value among others, skipping leading whitespace", () => {
    const text = ' {"a": "}{\\"", "b": [1, {"c": null}]}; {"d": 1}';
    const end = jsonValueEnd(text, 0)!;
    expect(JSON.parse(text.slice(0, end))).toEqual({ a: '}{"', b: [1, { c: null }] });
    expect(text.slice(end)).toBe('; {"d": 1}');
    expect(jsonValueEnd(text, end + 1)).toBe(text.length);
    expect(jsonValueEnd("1.5e3 rest")).toBe(5);
  });

  it("is undefined where no JSON value starts: cut, unbalanced, or not JSON", () => {
    for (const text of ['{"a": 1', "{'a': 1}", "{a: 1}", "", "   ", "nul", '{"a": 1]', "[1,]"])
      expect(jsonValueEnd(text)).toBeUndefined();
  });

  it("agrees with JSON.parse on any JSON value followed by other text", () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.constantFrom("", " ", "; x", "\n{}"), (value, rest) => {
        const written = JSON.stringify(value, null, 1);
        const end = jsonValueEnd(written + rest);
        // A number run straight into "x" would not end where JSON.stringify did; the separators above keep them apart.
        return (
          end === written.length && JSON.stringify(JSON.parse((written + rest).slice(0, end))) === JSON.stringify(value)
        );
      }),
    );
  });
});

describe("objectMembers", () => {
  it("gives each key the raw text of its value: 1.0 stays 1.0, spacing and key order as written", () => {
    const members = objectMembers('{ "name" : "f", "arguments": {"x": 1.0,  "y":[ 2 ]}, "k\\u0041": true }');
    expect([...members!]).toEqual([
      ["name", '"f"'],
      ["arguments", '{"x": 1.0,  "y":[ 2 ]}'],
      ["kA", "true"],
    ]);
  });

  it("keeps the last value of a repeated key (as JSON.parse does), and is undefined for anything but one object", () => {
    expect(objectMembers('{"a": 1, "a": 2}')?.get("a")).toBe("2");
    expect(objectMembers("{}")?.size).toBe(0);
    for (const text of ["[1]", '"s"', "null", '{"a": 1} {"b": 2}', '{"a": 1'])
      expect(objectMembers(text)).toBeUndefined();
  });
});
