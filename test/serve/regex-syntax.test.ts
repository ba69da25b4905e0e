// The regex parser: what it reads as JavaScript does, and what it refuses, naming the construct and where.
import { describe, expect, it } from "vitest";
import { parseRegex, RegexProblem } from "../../src/serve/regex-syntax.js";

describe("regex syntax", () => {
  it("reads literals, classes, groups and quantifiers, with Annex B's literal braces", () => {
    expect(parseRegex("a{,2}")).toEqual({
      t: "seq",
      items: [
        { t: "set", set: [0x61, 0x61] },
        { t: "set", set: [0x7b, 0x7b] },
        { t: "set", set: [0x2c, 0x2c] },
        { t: "set", set: [0x32, 0x32] },
        { t: "set", set: [0x7d, 0x7d] },
      ],
    });
    expect(parseRegex("\\uD83D\\uDE00")).toEqual({ t: "set", set: [0x1f600, 0x1f600] });
    expect(parseRegex("[\\b]")).toEqual({ t: "set", set: [0x08, 0x08] });
    expect(parseRegex("(?:ab)?")).toMatchObject({ t: "repeat", min: 0, max: 1 });
  });

  it("refuses what is not regular or not supported, naming it and where", () => {
    const cases: [string, RegExp][] = [
      ["(?<!a)b", /a lookbehind/],
      ["(a)\\1", /a backreference at 3/],
      ["\\bword", /a word boundary \\b/],
      ["(?i:a)", /an inline modifier/],
      ["a{1001}", /a count above 1000/],
      ["(ab", /an unterminated group/],
      ["ab)", /an unmatched "\)"/],
      ["*a", /a quantifier with nothing to repeat/],
      ["a{2}{3}", /a quantifier with nothing to repeat at 4/],
      ["[b-a]", /a class range out of order/],
      ["\\q", /the escape \\q/],
    ];
    for (const [pattern, message] of cases) {
      expect(() => parseRegex(pattern), pattern).toThrow(RegexProblem);
      expect(() => parseRegex(pattern), pattern).toThrow(message);
    }
  });
});
