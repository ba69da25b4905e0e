// Masks on every token of a reply: allowed_token_ids, bad_words as vLLM masks them (the last token of a word after
// its others), and several constraints together (their intersection; the end tokens when nothing is left).
import { describe, expect, it } from "vitest";
import { allOf, allowedTokens, badWords } from "../../src/serve/token-masks.js";
import { byteVocabulary } from "../../src/serve/vocabulary.js";

const allowed = (mask: Uint8Array): number[] => [...mask.keys()].filter((token) => mask[token] === 1);

describe("token masks", () => {
  it("allows only the listed tokens, on every token", () => {
    const constraint = allowedTokens([65, 66, 300]);
    expect(allowed(constraint.mask(5, 260))).toEqual([65, 66]);
    constraint.advance(65);
    expect(allowed(constraint.mask(4, 260))).toEqual([65, 66]);
  });

  it("masks a bad word's last token after its others, with and without a space before it", () => {
    const constraint = badWords(["ab", "c"], byteVocabulary(260));
    const banned = (mask: Uint8Array): number[] => [...mask.keys()].filter((token) => mask[token] === 0);
    // "c" and " c": c (99) always; " c" is two tokens: c after a space (already banned).
    expect(banned(constraint.mask(9, 260))).toEqual([99]);
    constraint.advance(0x61);
    expect(banned(constraint.mask(8, 260))).toEqual([98, 99]);
    constraint.advance(0x20);
    expect(banned(constraint.mask(7, 260))).toEqual([99]);
  });

  it("intersects constraints, falling back to the end tokens when none is left", () => {
    const both = allOf([allowedTokens([65, 66]), allowedTokens([66, 67])], [256]);
    expect(allowed(both.mask(3, 260))).toEqual([66]);
    const none = allOf([allowedTokens([65]), allowedTokens([67])], [256]);
    expect(allowed(none.mask(3, 260))).toEqual([256]);
  });
});
