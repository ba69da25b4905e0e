import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { canonicalJson } from "../../src/core/json.js";

/** The same value with the keys of every object inserted in reverse order. */
function reversedKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(reversedKeys);
  if (value === null || typeof value !== "object") return value;
  return Object.fromEntries(
    Object.keys(value)
      .reverse()
      .map((key) => [key, reversedKeys((value as Record<string, unknown>)[key])]),
  );
}

/** Keys of every object of a parsed JSON text, in text order, are sorted. */
function sortedEverywhere(text: string): boolean {
  const keys: string[][] = [];
  JSON.parse(text, function (this: unknown, _key, value: unknown) {
    if (value !== null && typeof value === "object" && !Array.isArray(value))
      keys.push(Object.keys(value).filter((key) => !/^(0|[1-9]\d*)$/.test(key)));
    return value;
  });
  return keys.every((list) => list.every((key, i) => i === 0 || (list[i - 1] as string) < key));
}

describe("canonicalJson", () => {
  it("writes the value JSON.stringify writes, with keys sorted, whatever order they were inserted in", () => {
    fc.assert(
      fc.property(fc.anything({ withNullPrototype: false, withObjectString: true }), (value) => {
        const text = canonicalJson(value);
        expect(JSON.parse(text)).toEqual(JSON.parse(JSON.stringify(value) ?? "null"));
        expect(canonicalJson(reversedKeys(value))).toBe(text);
        expect(sortedEverywhere(text)).toBe(true);
      }),
      { numRuns: 500 },
    );
    expect(
      canonicalJson({ b: [1, undefined, Number.NaN, "x\u2028"], a: { d: undefined, c: -0 }, "1": true, "": 0 }),
    ).toBe('{"":0,"1":true,"a":{"c":0},"b":[1,null,null,"x\u2028"]}');
  });
});
