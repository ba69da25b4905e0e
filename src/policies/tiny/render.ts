// How the tiny policy sees a conversation: each message as <|role|> + its UTF-8 bytes + <|end|>, then
// <|assistant|> to ask for the answer. Tool messages are user turns whose text starts with "[tool] ";
// assistant tool calls are appended to the text as `<call name>{arguments}` lines.
//
// Fitting the context window (the rule): the prompt may use `budget` tokens (context length minus the room
// kept for the answer). Walking back from the newest message, whole messages are kept while they fit;
// older ones are dropped (the system prompt is not pinned: with a 256-byte context the newest observation
// matters more). If even the newest message does not fit, its newest bytes are kept after its role marker.
import type { Message } from "../../core/message.js";
import { ASSISTANT, encodeText, END, SYSTEM, USER } from "../../nn/tokenizer.js";

function roleToken(message: Message): number {
  if (message.role === "system") return SYSTEM;
  if (message.role === "assistant") return ASSISTANT;
  return USER;
}

function messageText(message: Message): string {
  const calls = (message.toolCalls ?? []).map((c) => `\n<call ${c.name}>${c.arguments}`).join("");
  return `${message.role === "tool" ? "[tool] " : ""}${message.content}${calls}`;
}

/** Tokens of one message: role marker, bytes, end-of-turn. */
export function renderMessage(message: Message): number[] {
  return [roleToken(message), ...encodeText(messageText(message)), END];
}

/** The prompt for the next assistant turn, at most `budget` tokens (budget >= 3). */
export function renderPrompt(conversation: readonly Message[], budget: number): number[] {
  if (!(Number.isInteger(budget) && budget >= 3))
    throw new RangeError(`renderPrompt: budget must be an integer >= 3, got ${budget}`);
  const room = budget - 1; // the final <|assistant|>
  const kept: number[][] = [];
  let used = 0;
  for (let i = conversation.length - 1; i >= 0; i--) {
    const tokens = renderMessage(conversation[i]!);
    if (used + tokens.length <= room) {
      kept.unshift(tokens);
      used += tokens.length;
      continue;
    }
    if (kept.length === 0) {
      // The newest message alone is too long: keep its marker, its newest bytes and its end.
      const body = tokens.slice(1, -1);
      kept.push([tokens[0]!, ...body.slice(body.length - (room - 2)), END]);
    }
    break;
  }
  return [...kept.flat(), ASSISTANT];
}
