// The tokens of replies whose text loses tokens: a byte-level model can sample bytes that are not valid UTF-8
// (the reply's text shows U+FFFD) or a role marker in mid-reply (the text drops it), so the text a client sends
// back cannot give the tokens again. The in-process policy continues an episode with the tokens it sampled; to
// prompt exactly as it does, serve keeps the sampled tokens of such replies, keyed by the prompt they answered
// and their text, and the replay of a later request's conversation (tiny/conversation.ts) takes them from here. Replies whose text round-trips
// (bytes of valid UTF-8, the usual case) are never stored: their text gives their tokens.
//
// Bounded: the least recently used entry goes first beyond `capacity`. A reply that was forgotten (or that
// another server sampled) is re-encoded from its text, which differs from the sampled tokens only where they
// were not valid UTF-8 or not bytes.
import { createHash } from "node:crypto";
import type { Message } from "../core/message.js";
import { decodeTokens, encodeText, END } from "../nn/tokenizer.js";
import { textReplyTokens, type ReplyTokens } from "../policies/tiny/conversation.js";

export interface ReplyMemo {
  /** Keep a sampled reply (its tokens as sampled, end token included) if its text does not give its bytes back. */
  remember(prompt: readonly number[], tokens: readonly number[]): void;
  /** Tokens of an earlier reply given the prompt it answered: as sampled when remembered, else from its text. */
  readonly replyTokens: ReplyTokens;
  size(): number;
}

function keyOf(prompt: readonly number[], text: string): string {
  return createHash("sha256").update(Int32Array.from(prompt)).update("\u0000").update(text).digest("hex");
}

/** True when a reply's text gives its tokens back: bytes only (a final end token aside), valid UTF-8. */
export function roundTrips(tokens: readonly number[]): boolean {
  const body = tokens.at(-1) === END ? tokens.slice(0, -1) : tokens;
  if (!body.every((token) => token < 256)) return false;
  const again = encodeText(decodeTokens(body));
  return again.length === body.length && again.every((byte, i) => byte === body[i]);
}

export function createReplyMemo(capacity: number): ReplyMemo {
  const entries = new Map<string, readonly number[]>();
  return {
    remember(prompt, tokens) {
      if (capacity <= 0 || roundTrips(tokens)) return;
      const key = keyOf(prompt, decodeTokens(tokens.filter((token) => token !== END)));
      entries.delete(key);
      entries.set(key, [...tokens]);
      if (entries.size > capacity) entries.delete(entries.keys().next().value as string);
    },
    replyTokens(reply: Message, prompt: readonly number[]) {
      if (entries.size === 0 || reply.toolCalls !== undefined) return textReplyTokens(reply);
      const key = keyOf(prompt, reply.content);
      const tokens = entries.get(key);
      if (tokens === undefined) return textReplyTokens(reply);
      entries.delete(key);
      entries.set(key, tokens);
      return tokens;
    },
    size: () => entries.size,
  };
}
