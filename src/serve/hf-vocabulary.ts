// The vocabulary (vocabulary.ts) of a Hugging Face tokenizer (`serve --renderer hf:DIR`): each id's bytes, read
// from tokenizer.json rather than decoded one by one (a token may hold part of a character):
//   special added tokens          none (never text; the stop tokens among them end replies)
//   other added tokens            their content's UTF-8 bytes (Qwen's <tool_call> is one)
//   byte-level BPE (GPT-2, Qwen)  the token's characters mapped back to bytes (GPT-2's bytes_to_unicode table)
//   byte fallback (<0x0A>)        that byte
//   anything else                 the UTF-8 bytes of the token decoded alone (SentencePiece's "▁" is a space)
// A token is shown (log-prob entries) as the tokenizer decodes it alone, special tokens by their text.
import type { JsonObject } from "../core/json.js";
import type { HfChatTemplate } from "../policies/renderers/hf-template.js";
import type { Vocabulary } from "./vocabulary.js";

/** GPT-2's byte-to-character table, inverted: character code -> byte. */
function unicodeToByte(): Map<number, number> {
  const printable: number[] = [];
  for (let b = 0x21; b <= 0x7e; b++) printable.push(b);
  for (let b = 0xa1; b <= 0xac; b++) printable.push(b);
  for (let b = 0xae; b <= 0xff; b++) printable.push(b);
  const out = new Map<number, number>();
  for (const b of printable) out.set(b, b);
  let extra = 0;
  for (let b = 0; b < 256; b++) if (!printable.includes(b)) out.set(256 + extra++, b);
  return out;
}

function isByteLevel(decoder: unknown): boolean {
  if (decoder === null || typeof decoder !== "object") return false;
  const { type, decoders } = decoder as { type?: unknown; decoders?: unknown };
  return type === "ByteLevel" || (type === "Sequence" && Array.isArray(decoders) && decoders.some(isByteLevel));
}

interface AddedToken {
  readonly id: number;
  readonly content: string;
  readonly special: boolean;
}

function addedTokens(tokenizer: JsonObject): AddedToken[] {
  const list = tokenizer["added_tokens"];
  if (!Array.isArray(list)) return [];
  return list.flatMap((entry) => {
    const { id, content, special } = (entry ?? {}) as { id?: unknown; content?: unknown; special?: unknown };
    return typeof id === "number" && typeof content === "string" ? [{ id, content, special: special === true }] : [];
  });
}

/** The vocabulary of a chat template's tokenizer, for a model of `size` ids (at least the tokenizer's). */
export function hfVocabulary(chat: HfChatTemplate, size: number): Vocabulary {
  const { tokenizer } = chat;
  const encoder = new TextEncoder();
  const added = new Map(addedTokens(chat.files.tokenizer).map((token) => [token.id, token]));
  const byteLevel = isByteLevel(chat.files.tokenizer["decoder"]);
  const toByte = unicodeToByte();
  const cache = new Map<number, readonly number[]>();
  const bytesOf = (token: number): readonly number[] => {
    const special = added.get(token);
    if (special !== undefined) return special.special ? [] : [...encoder.encode(special.content)];
    const piece = tokenizer.id_to_token(token);
    if (piece === undefined) return [];
    const fallback = /^<0x([0-9A-Fa-f]{2})>$/.exec(piece);
    if (fallback !== null) return [Number.parseInt(fallback[1]!, 16)];
    if (byteLevel) {
      const bytes = [...piece].map((char) => toByte.get(char.codePointAt(0)!));
      if (bytes.every((b): b is number => b !== undefined)) return bytes;
    }
    return [...encoder.encode(tokenizer.decode([token], { skip_special_tokens: false }))];
  };
  return {
    size,
    endTokens: chat.stopTokens,
    byteLevel: false,
    bytes(token) {
      let bytes = cache.get(token);
      if (bytes === undefined) cache.set(token, (bytes = bytesOf(token)));
      return bytes;
    },
    display: (token) => added.get(token)?.content ?? chat.decode([token]),
    encode: chat.encode,
    describe: chat.decode,
  };
}

/** The largest id the tokenizer has (vocabulary and added tokens). */
export function largestTokenId(chat: HfChatTemplate): number {
  let largest = -1;
  for (const id of chat.tokenizer.get_vocab(true).values()) largest = Math.max(largest, id);
  return largest;
}
