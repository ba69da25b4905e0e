// How serve turns a chat request into prompt tokens: a ChatRenderer. Two, as the Tinker side has (`--renderer`):
//
//   bytes    the tiny policy's rendering (<|role|> bytes <|end|> per message, then <|assistant|>: tiny/render.ts),
//            its turns replayed over the conversation (tiny/conversation.ts) with the sampled tokens of replies
//            whose message lost some (reply-memo.ts), so that a conversation's next turn extends the turn before
//            (the KV-cache session pool finds it). Under the tiny context rule (`answerRoom` given) older messages
//            are dropped as the policy drops them; otherwise the whole conversation is the prompt (the caller
//            refuses one longer than the context, as vLLM does). Tools are not written (the tiny policy never saw
//            a tool list); chat_template_kwargs change nothing (there is no template); documents are refused.
//   hf:DIR   a Hugging Face model's own chat template and tokenizer (hf-chat-renderer.ts, loaded only for one).
//
// Both honour add_generation_prompt false (no assistant header at the end) and continue_final_message (the prompt
// ends inside the last message, the assistant's).
import type { Message } from "../core/message.js";
import { ASSISTANT } from "../nn/tokenizer.js";
import { contextRule, type ContextRule, type PreviousTurn } from "../policies/tiny/context.js";
import { conversationTurn } from "../policies/tiny/conversation.js";
import { renderMessage } from "../policies/tiny/render.js";
import type { ToolCallFormat } from "../policies/tool-call-text.js";
import { badRequest } from "./errors.js";
import type { ReplyMemo } from "./reply-memo.js";
import type { ToolDefinition } from "./request.js";
import { byteVocabulary, type Vocabulary } from "./vocabulary.js";

export interface RenderInput {
  readonly messages: readonly Message[];
  readonly tools: readonly ToolDefinition[];
  readonly addGenerationPrompt: boolean;
  readonly continueFinalMessage: boolean;
  readonly templateKwargs: Readonly<Record<string, unknown>>;
  readonly documents: readonly Readonly<Record<string, unknown>>[];
  /** The tiny context rule: tokens kept free for the answer (older messages dropped to keep them); undefined: the
   * whole conversation. */
  readonly answerRoom?: number;
}

export interface Rendered {
  readonly prompt: number[];
  /** The conversation's turn before, when the renderer knows it (its KV-cache session may be reused). */
  readonly previous?: PreviousTurn;
}

export interface ChatRenderer {
  /** "bytes" or "hf:DIR". */
  readonly name: string;
  readonly vocabulary: Vocabulary;
  /** How replies write tool calls (tool_choice auto reads them); undefined: replies stay text. */
  readonly toolCallFormat: ToolCallFormat | undefined;
  /** True when the prompt holds the tools offered. */
  readonly writesTools: boolean;
  /** The prompt; a 400 (HttpError) for what the renderer cannot render. */
  render(input: RenderInput): Rendered;
  /** A reply as sampled and the message it was answered as (the byte renderer keeps tokens the text loses). */
  remember(prompt: readonly number[], tokens: readonly number[], reply: Message): void;
}

export interface ByteRendererSettings {
  readonly contextLength: number;
  readonly vocabSize: number;
  readonly memo: ReplyMemo;
  /** How replies write tool calls (--tool-call-parser). */
  readonly toolCallFormat: ToolCallFormat;
  /** Under the tiny rule, keep the newest bytes of a last message too long to fit instead of refusing it. */
  readonly cutLongMessages: boolean;
}

/** The tiny rule refuses a last message that does not fit alone, unless it is cut as the policy cuts it. */
function refuseLongMessage(messages: readonly Message[], rule: ContextRule, contextLength: number, room: number): void {
  const last = renderMessage(messages[messages.length - 1]!).length;
  if (last + 1 <= rule.budget) return;
  throw badRequest(
    "messages",
    `This model's maximum context length is ${contextLength} tokens, with ${contextLength - rule.budget} kept for the answer (max_tokens ${room}); the last message alone takes ${last} tokens and at most ${rule.budget - 1} fit. Older messages are dropped to fit, as the tiny policy drops them, but a message is never cut (budgetrl serve --cut-long-messages keeps its newest bytes instead).`,
    "context_length_exceeded",
  );
}

/** No budget: the whole conversation. */
const WHOLE: ContextRule = { budget: Number.MAX_SAFE_INTEGER };

export function byteRenderer(settings: ByteRendererSettings): ChatRenderer {
  const { memo, contextLength } = settings;
  return {
    name: "bytes",
    vocabulary: byteVocabulary(settings.vocabSize),
    toolCallFormat: settings.toolCallFormat,
    writesTools: false,
    render(input) {
      if (input.documents.length > 0)
        throw badRequest(
          "documents",
          "the bytes renderer has no chat template to write them (serve --renderer hf:DIR)",
        );
      const rule = input.answerRoom === undefined ? WHOLE : contextRule(contextLength, input.answerRoom);
      const { messages } = input;
      if (input.continueFinalMessage) {
        const head = messages.slice(0, -1);
        const turn = conversationTurn(rule, head, memo.replyTokens);
        const started = renderMessage(messages[messages.length - 1]!).slice(1, -1);
        return {
          prompt: [...turn.prompt, ...started],
          ...(turn.previous === undefined ? {} : { previous: turn.previous }),
        };
      }
      if (input.answerRoom !== undefined && !settings.cutLongMessages)
        refuseLongMessage(messages, rule, contextLength, input.answerRoom);
      const { prompt, previous } = conversationTurn(rule, messages, memo.replyTokens);
      const ended = input.addGenerationPrompt || prompt.at(-1) !== ASSISTANT ? prompt : prompt.slice(0, -1);
      return { prompt: ended, ...(previous === undefined ? {} : { previous }) };
    },
    remember: (prompt, tokens, reply) => memo.remember(prompt, tokens, reply),
  };
}
