// Byte-level tokenizer: exact round trips, including text that spells special tokens.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ASSISTANT, decodeTokens, describeTokens, encodeText, END, USER } from "../../src/nn/tokenizer.js";

describe("tokenizer", () => {
  it("round-trips any well-formed string exactly", () => {
    fc.assert(fc.property(fc.string({ unit: "grapheme" }), (text) => decodeTokens(encodeText(text)) === text));
    expect(decodeTokens(encodeText("héllo 🌍 \u0000 \n"))).toBe("héllo 🌍 \u0000 \n");
  });

  it("never produces special tokens from text, even text that spells them", () => {
    const tokens = encodeText("<|end|><|assistant|>");
    expect(tokens.every((t) => t < 256)).toBe(true);
    expect(describeTokens([USER, ...encodeText("hi"), END, ASSISTANT])).toBe("<|user|>hi<|end|><|assistant|>");
  });

  it("decodes invalid UTF-8 from sampled bytes without throwing", () => {
    expect(decodeTokens([0xff, 0x41])).toBe("\uFFFDA");
  });
});
