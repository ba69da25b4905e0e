// Byte-level tokenizer: every UTF-8 byte is a token (0..255), plus four special tokens that text can never
// produce: end-of-turn and three role markers. Text that spells a marker ("<|end|>") is just bytes, so
// hostile text cannot forge a turn boundary. Any JavaScript string without lone surrogates round-trips
// exactly (lone surrogates have no UTF-8 form and become U+FFFD, as everywhere in UTF-8).
export const END = 256;
export const SYSTEM = 257;
export const USER = 258;
export const ASSISTANT = 259;
export const SPECIAL_TOKENS: Readonly<Record<number, string>> = Object.freeze({
  [END]: "<|end|>",
  [SYSTEM]: "<|system|>",
  [USER]: "<|user|>",
  [ASSISTANT]: "<|assistant|>",
});
/** Smallest vocabulary the tokenizer needs. */
export const TOKENIZER_VOCAB = 260;

const encoder = new TextEncoder();

export function encodeText(text: string): number[] {
  return Array.from(encoder.encode(text));
}

/** Text of byte tokens; special tokens are dropped, invalid UTF-8 becomes U+FFFD. */
export function decodeTokens(tokens: readonly number[]): string {
  const bytes = Uint8Array.from(tokens.filter((t) => t >= 0 && t < 256));
  return new TextDecoder("utf-8", { fatal: false }).decode(bytes);
}

/** Human-readable form of any token list, special tokens spelled out (for logs and tests). */
export function describeTokens(tokens: readonly number[]): string {
  let out = "";
  let bytes: number[] = [];
  const flush = (): void => {
    out += decodeTokens(bytes);
    bytes = [];
  };
  for (const t of tokens) {
    if (t < 256) bytes.push(t);
    else {
      flush();
      out += SPECIAL_TOKENS[t] ?? `<|${t}|>`;
    }
  }
  flush();
  return out;
}
