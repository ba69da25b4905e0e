// The vocabulary of a Hugging Face tokenizer (the hand-made one of the Tinker tests): byte-level tokens back to
// their bytes, merges to several, special tokens to none (the stop token ends replies), shown as decoded.
import { describe, expect, it } from "vitest";
import { readHfFiles } from "../../src/policies/renderers/hf-files.js";
import { hfChatTemplate } from "../../src/policies/renderers/hf-template.js";
import { hfVocabulary, largestTokenId } from "../../src/serve/hf-vocabulary.js";
import { tokensText } from "../../src/serve/vocabulary.js";
import { END, FIXTURE, START } from "../policies/renderers/hf-fixture.js";

describe("hf vocabulary", () => {
  it("gives each id its bytes, the specials none, and text back from tokens", () => {
    const chat = hfChatTemplate(readHfFiles(FIXTURE));
    const vocabulary = hfVocabulary(chat, 260);
    expect(vocabulary.bytes(48)).toEqual([48]);
    expect(vocabulary.bytes(32)).toEqual([32]);
    expect(vocabulary.bytes(0xe9)).toEqual([0xe9]);
    expect(vocabulary.bytes(256)).toEqual([32, 116]);
    expect(vocabulary.bytes(257)).toEqual([104, 101]);
    expect(vocabulary.bytes(START)).toEqual([]);
    expect(vocabulary.endTokens).toEqual([END]);
    expect(vocabulary.display(END)).toBe("<|im_end|>");
    const text = "the end, café";
    expect(tokensText(vocabulary, vocabulary.encode(text))).toBe(text);
    expect(vocabulary.encode(" the")).toEqual([256, 257]);
    expect(largestTokenId(chat)).toBe(259);
  });
});
