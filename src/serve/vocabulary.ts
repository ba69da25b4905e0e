// What serve needs to know of a model's tokens, whichever renderer made the prompt: the bytes each token writes,
// how a token is shown (log-prob entries, token_strs), the tokens that end a reply, and text to tokens and back.
// The byte tokenizer's vocabulary is here (tokens 0-255 are UTF-8 bytes, 256 <|end|>, 257-259 the role markers);
// an hf:DIR renderer's is built from its Hugging Face tokenizer (hf-vocabulary.ts, loaded only with one).
//
// Text is always made of bytes: a reply's text is the UTF-8 decoding of its tokens' bytes (special tokens write
// none; bytes that are not valid UTF-8 show as U+FFFD), so that streamed pieces, stop strings and constrained
// decoding (json-constraint.ts) work on the same bytes for every tokenizer.
import { describeTokens, encodeText, END, SPECIAL_TOKENS } from "../nn/tokenizer.js";

export interface Vocabulary {
  /** Token ids are 0..size - 1. */
  readonly size: number;
  /** Tokens that end a reply unless ignore_eos (<|end|>; an hf renderer's stop tokens). */
  readonly endTokens: readonly number[];
  /** True when every token is one byte or a special token (the byte tokenizer). */
  readonly byteLevel: boolean;
  /** The bytes of a token's text ([] for a special token). */
  bytes(token: number): readonly number[];
  /** A token as log-prob entries show it: its text, or a special token's name. */
  display(token: number): string;
  /** Text as tokens (a completions prompt, /tokenize), no special tokens added. */
  encode(text: string): number[];
  /** Tokens spelled out, special tokens by name (/detokenize). */
  describe(tokens: readonly number[]): string;
}

const decoder = () => new TextDecoder("utf-8", { fatal: false });

/** The text of tokens: their bytes as UTF-8 (invalid bytes as U+FFFD), special tokens dropped. */
export function tokensText(vocabulary: Vocabulary, tokens: readonly number[]): string {
  return decoder().decode(Uint8Array.from(tokens.flatMap((token) => vocabulary.bytes(token))));
}

const BYTES: readonly (readonly number[])[] = Array.from({ length: 256 }, (_, b) => [b]);
const NONE: readonly number[] = [];

/** The byte tokenizer's vocabulary for a model of `size` ids. */
export function byteVocabulary(size: number): Vocabulary {
  return {
    size,
    endTokens: [END],
    byteLevel: true,
    bytes: (token) => BYTES[token] ?? NONE,
    display: (token) =>
      token < 256 ? decoder().decode(Uint8Array.of(token)) : (SPECIAL_TOKENS[token] ?? `<|${token}|>`),
    encode: encodeText,
    describe: describeTokens,
  };
}
