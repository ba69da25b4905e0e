// The tiny policy's prompt for a whole conversation, without the policy's per-episode state: the context rule
// (context.ts) replayed over the conversation's earlier turns, each ending at an assistant message, exactly as
// the policy met them one by one in an episode. This is how `budgetrl serve` answers a stateless request the
// way the in-process policy answers the same conversation.
//
// Replay: for the assistant message at index a, its prompt was turnPrompt(rule, conversation[0, a), previous),
// and the turn it leaves for the next is { prompt, reply: its tokens, messages: a + 1 }; the answer's prompt is
// turnPrompt(rule, conversation, the last such turn).
//
// A reply's tokens: the policy continues a segment with the tokens it sampled; here they come from
// `replyTokens`, by default the message's text re-encoded (its bytes and an end token). The two agree whenever
// the sampled bytes were valid UTF-8 (and whether the reply ended with an end token or was cut does not matter:
// turnPrompt adds one to a cut reply). Bytes that are not valid UTF-8 were decoded to U+FFFD in the message's
// text and cannot be recovered from it: a caller that kept the sampled tokens passes them in.
import type { Message } from "../../core/message.js";
import { turnPrompt, type ContextRule, type PreviousTurn } from "./context.js";
import { renderMessage } from "./render.js";

/** The tokens of a reply as its text says: its bytes (tool calls as `<call name>` lines) and an end token. */
export function textReplyTokens(reply: Message): number[] {
  return renderMessage(reply).slice(1);
}

/** Tokens of an earlier reply, given the prompt it answered. */
export type ReplyTokens = (reply: Message, prompt: readonly number[]) => readonly number[];

/** The next turn of a conversation: its prompt, and the turn before as the policy kept it. */
export interface ConversationTurn {
  readonly prompt: number[];
  readonly previous?: PreviousTurn;
}

/** The next assistant turn of `conversation` under the rule, its earlier turns replayed. */
export function conversationTurn(
  rule: ContextRule,
  conversation: readonly Message[],
  replyTokens: ReplyTokens = textReplyTokens,
): ConversationTurn {
  let previous: PreviousTurn | undefined;
  conversation.forEach((message, index) => {
    if (message.role !== "assistant") return;
    const prompt = turnPrompt(rule, conversation.slice(0, index), previous);
    previous = { prompt, reply: replyTokens(message, prompt), messages: index + 1 };
  });
  return { prompt: turnPrompt(rule, conversation, previous), ...(previous === undefined ? {} : { previous }) };
}

/** The prompt of the next assistant turn of `conversation` under the rule, its earlier turns replayed. */
export function conversationPrompt(
  rule: ContextRule,
  conversation: readonly Message[],
  replyTokens: ReplyTokens = textReplyTokens,
): number[] {
  return conversationTurn(rule, conversation, replyTokens).prompt;
}
