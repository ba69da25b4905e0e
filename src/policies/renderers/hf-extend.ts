// The keep-thinking prompt of the hf:DIR renderer (the segments history): the next turn's prompt is the turn
// before's prompt, its reply tokens as sampled, and the chat template's own text for what came after the reply,
// so that an episode stays one sequence whatever the template does to earlier turns (Qwen3 drops the <think>
// reasoning of replies before the last user message; here the model sees its reasoning as it wrote it).
//
// The template's text after the reply: the conversation rendered with the reply replaced by an assistant message
// whose whole content is a mark no conversation holds (and no tool calls: the reply's own text already holds
// them), then the text after the mark: the template's closing of the reply (e.g. "<|im_end|>\n"), the new
// messages (tool results, the next observation) and the generation prompt. When the reply ended with a stop
// token whose text opens that closing, the closing's copy of it is left out (the sampled token is already
// there); a reply cut before its stop token keeps the closing in full. Undefined where the template does not
// write the mark exactly once, or fails on the marked conversation: the renderer then renders the whole
// conversation (a new sequence).
import type { Message } from "../../core/message.js";
import type { PreviousTurn } from "../tiny/context.js";

const REPLY_MARK = "\u2063budgetrl:reply-mark\u2063";

export interface TemplateText {
  /** The conversation through the chat template, with the generation prompt (tools and options bound). */
  render(messages: readonly Message[]): string;
  encode(text: string): number[];
  /** The text of a stop token, undefined for any other token. */
  stopText(token: number): string | undefined;
}

/** The template's text after the reply at conversation[at], or undefined when it cannot be told apart. */
function textAfterReply(template: TemplateText, conversation: readonly Message[], at: number): string | undefined {
  const marked: Message[] = [
    ...conversation.slice(0, at),
    { role: "assistant", content: REPLY_MARK },
    ...conversation.slice(at + 1),
  ];
  let text: string;
  try {
    text = template.render(marked);
  } catch {
    return undefined;
  }
  const index = text.indexOf(REPLY_MARK);
  if (index === -1 || text.indexOf(REPLY_MARK, index + 1) !== -1) return undefined;
  return text.slice(index + REPLY_MARK.length);
}

/** The prompt that extends `previous` (its prompt and reply tokens) with the template's text after the reply. */
export function extendedPrompt(
  template: TemplateText,
  conversation: readonly Message[],
  previous: PreviousTurn,
): number[] | undefined {
  const at = previous.messages - 1;
  if (at < 0 || at >= conversation.length || conversation[at]!.role !== "assistant") return undefined;
  let after = textAfterReply(template, conversation, at);
  if (after === undefined) return undefined;
  const last = previous.reply.at(-1);
  const closing = last === undefined ? undefined : template.stopText(last);
  if (closing !== undefined && after.startsWith(closing)) after = after.slice(closing.length);
  return [...previous.prompt, ...previous.reply, ...template.encode(after)];
}
