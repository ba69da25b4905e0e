// Regular expressions compiled to automata agree with JavaScript's own RegExp (the u flag, as Ajv compiles JSON
// Schema patterns) on random strings, matched whole (guided_regex) and searched (JSON Schema's pattern); two
// patterns intersect; the distances are the fewest characters and bytes to a match.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { compileRegex, intersectNfa, type Nfa } from "../../src/serve/regex-automaton.js";
import { LazyDfa } from "../../src/serve/regex-dfa.js";
import { parseRegex } from "../../src/serve/regex-syntax.js";

function accepts(dfa: LazyDfa, text: string): boolean {
  let state = dfa.start;
  for (const ch of text) if ((state = dfa.next(state, ch.codePointAt(0)!)) < 0) return false;
  return dfa.accepts(state);
}

const dfaOf = (pattern: string, search: boolean): LazyDfa => new LazyDfa(compileRegex(parseRegex(pattern), search));

const PATTERNS = [
  "a*b+c?",
  "(ab|a)(c|bcd)d*",
  "[a-c]{2,3}x{0,2}",
  "[^ab]+",
  "\\d{2}-\\w\\s?\\D",
  "(?:x|yz)*(?<tail>q)?",
  "^a|b$",
  "^(a|b)*$",
  "a.c",
  "[\\u00e9\\u{1F600}-\\u{1F602}]+z",
  "\\p{Lu}\\P{Lu}",
  "[\\]\\-a]{1,2}\\.\\^\\$",
  "(?:a{2}){3}",
  "(|a)b",
  "[A-Z]{3}-\\d{2}",
  "x*?y+?",
  "^(?!a)(?!.*bb)[abc]*$",
  "^(?=.*q)[a-z]{2,4}$",
  "^(?!^[-.]*$)[-]?1*\\.?2*$",
];
const ALPHABET = ["a", "b", "c", "d", "q", "x", "y", "z", "-", " ", "1", "2", "A", "é", "😀", "\n", ".", "^", "$", "]"];
const refusedMidway = () => compileRegex(parseRegex("a(?!b)c"), false);

describe("regex automata", () => {
  for (const pattern of PATTERNS)
    it(`agrees with RegExp on /${pattern}/ whole and searched`, () => {
      const whole = dfaOf(pattern, false);
      const search = dfaOf(pattern, true);
      const full = new RegExp(`^(?:${pattern})$`, "u");
      const somewhere = new RegExp(pattern, "u");
      fc.assert(
        fc.property(fc.array(fc.constantFrom(...ALPHABET), { maxLength: 8 }), (chars) => {
          const text = chars.join("");
          expect(accepts(whole, text), text).toBe(full.test(text));
          expect(accepts(search, text), text).toBe(somewhere.test(text));
        }),
        { seed: 7, numRuns: 400 },
      );
    });

  it("compiles lookaheads at the start of an anchored pattern only", () => {
    expect(refusedMidway).toThrow(/a lookahead \(\?! is supported only at the start of a pattern anchored with \^/);
    expect(() => compileRegex(parseRegex("(?=a)a"), true)).toThrow(/only at the start/);
  });

  it("intersects two patterns, and knows the fewest characters and bytes to a match", () => {
    const both: Nfa = intersectNfa(compileRegex(parseRegex("[a-z]+"), false), compileRegex(parseRegex("...+"), false));
    const dfa = new LazyDfa(both);
    expect(accepts(dfa, "ab")).toBe(false);
    expect(accepts(dfa, "abc")).toBe(true);
    expect(accepts(dfa, "abC")).toBe(false);
    expect(dfa.fewest(dfa.start, 0)).toBe(3);
    expect(dfa.fewest(dfa.start, 5)).toBe(5);
    const unicode = dfaOf('é+|"', false);
    expect(unicode.fewest(unicode.start, 0, "raw")).toBe(1); // a quote
    expect(unicode.fewest(unicode.start, 0, "json")).toBe(2); // \" in a JSON string, é as two UTF-8 bytes
    expect(unicode.fewest(unicode.start, 2, "json")).toBe(4); // éé
  });
});
