// The tokens of replies whose message loses tokens: a byte-level model can sample bytes that are not valid UTF-8
// (the reply's text shows U+FFFD) or a role marker in mid-reply (the text drops it), and a reply read as tool
// calls comes back as calls, which the tiny policy's rendering writes as `<call name>` lines, not as the text the
// model wrote. So the message a client sends back cannot give the tokens again. The in-process policy continues
// an episode with the tokens it sampled; to prompt exactly as it does, serve keeps the sampled tokens of such
// replies, keyed by the prompt they answered and the message as it renders, and the replay of a later request's
// conversation (tiny/conversation.ts) takes them from here. Replies whose message gives their tokens back (text of
// valid UTF-8, the usual case) are never stored.
//
// Bounded: the least recently used entry goes first beyond `capacity`. A reply that was forgotten (or that
// another server sampled) is re-encoded from its text, which differs from the sampled tokens only where they
// were not valid UTF-8 or not bytes.
import { createHash } from "node:crypto";
import type { Message } from "../core/message.js";
import { decodeTokens, END } from "../nn/tokenizer.js";
import { textReplyTokens, type ReplyTokens } from "../policies/tiny/conversation.js";
import { deleteOldest } from "../core/oldest-key.js";

export interface ReplyMemo {
  /**
   * Keep a sampled reply (its tokens as sampled, end token included) if the message it was answered as (by
   * default its text) does not give them back.
   */
  remember(prompt: readonly number[], tokens: readonly number[], reply?: Message): void;
  /** Tokens of an earlier reply given the prompt it answered: as sampled when remembered, else from its text. */
  readonly replyTokens: ReplyTokens;
  size(): number;
}

/** The key of a reply: the prompt it answered and its message as it renders. */
function keyOf(prompt: readonly number[], reply: Message): string {
  return createHash("sha256")
    .update(Int32Array.from(prompt))
    .update(Int32Array.from(textReplyTokens(reply)))
    .digest("hex");
}

/** The message of a reply's text. */
const textMessage = (tokens: readonly number[]): Message => ({
  role: "assistant",
  content: decodeTokens(tokens.filter((token) => token !== END)),
});

/** True when a reply's message gives its tokens back (a cut reply gets an end token in the replay either way). */
export function givesBack(tokens: readonly number[], reply: Message): boolean {
  const sampled = tokens.at(-1) === END ? tokens : [...tokens, END];
  const again = textReplyTokens(reply);
  return again.length === sampled.length && again.every((token, i) => token === sampled[i]);
}

/** True when a reply's text gives its tokens back: bytes only (a final end token aside), valid UTF-8. */
export function roundTrips(tokens: readonly number[]): boolean {
  return givesBack(tokens, textMessage(tokens));
}

export function createReplyMemo(capacity: number): ReplyMemo {
  const entries = new Map<string, readonly number[]>();
  return {
    remember(prompt, tokens, reply = textMessage(tokens)) {
      if (capacity <= 0 || givesBack(tokens, reply)) return;
      const key = keyOf(prompt, reply);
      entries.delete(key);
      entries.set(key, [...tokens]);
      if (entries.size > capacity) deleteOldest(entries);
    },
    replyTokens(reply: Message, prompt: readonly number[]) {
      if (entries.size === 0) return textReplyTokens(reply);
      const key = keyOf(prompt, reply);
      const tokens = entries.get(key);
      if (tokens === undefined) return textReplyTokens(reply);
      entries.delete(key);
      entries.set(key, tokens);
      return tokens;
    },
    size: () => entries.size,
  };
}
