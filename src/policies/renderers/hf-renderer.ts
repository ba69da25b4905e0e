// The renderer of a real LLM (`--renderer hf:DIR`): its Hugging Face tokenizer (tokenizer.json through
// @huggingface/tokenizers) and chat template (through @huggingface/jinja, an interpreter of the template
// language: nothing is eval'd), from the files of hf-files.ts, with the options of hf-options.ts; the tokenizer,
// template, variables, stop tokens and tool-call format are hf-template.ts's (shared with `budgetrl serve`).
//
// - prompt: the conversation through the chat template with add_generation_prompt, the env's tools (OpenAI
//   function schemas, `tools`, as transformers' apply_chat_template(tools=...) and vLLM pass them; none when the
//   env offers none), the special tokens of tokenizer_config (bos_token, eos_token, ...) and the template options
//   (enable_thinking, ...) as template variables, encoded without adding special tokens (only those the template
//   writes). Context window: when the prompt passes the budget (contextLength - maxNewTokens, at most half the
//   context kept free: contextRule), the oldest non-system messages are dropped, whole turns at a time (a turn:
//   the messages up to and including an assistant reply), until it fits; the system messages at the start are
//   always kept. When the newest turn alone does not fit, the start of its last message's text is cut.
// - history: segments (keep thinking, the one rule): a turn of an episode extends the turn before's prompt and
//   reply as sampled with the template's text after that reply (hf-extend.ts), so earlier <think> reasoning stays
//   and the episode is one sequence; the whole conversation is rendered at the first turn, when the tools change,
//   where the extension would pass the budget, and where the template's text after the reply cannot be found.
// - stopTokens: the id of tokenizer_config's eos_token, then generation_config.json's eos_token_id ids.
// - decode: the text of the sampled tokens without the stop tokens (a reply of the stop token alone is "", ids
//   outside the vocabulary give no text: never an error); when the env offers tools, the tool calls are read
//   from the text in the template's format (policies/tool-call-text.ts; a malformed call is a call the env
//   answers as malformed).
// - responseTokens: the reply's text encoded (its tool calls written in that format), then the first stop token.
// - episodeSequences: each turn's prompt is the one the policy remembers sampling the reply after, else the
//   prompt rendered from the messages (without tools: the episode does not keep them); a turn joins the sequence
//   before when its prompt starts with that sequence (the earlier prompts and the replies as sampled), else a new
//   sequence starts at that turn. A reply is always trained on the exact tokens it was sampled after.
import { assistantMessage, type Message, type ToolSpec } from "../../core/message.js";
import { ContextLengthError } from "../../core/policy.js";
import { contextRule, promptSequences } from "../tiny/context.js";
import { parseToolCalls, writeToolCalls } from "../tool-call-text.js";
import { extendedPrompt, type TemplateText } from "./hf-extend.js";
import type { HfTokenizerFiles } from "./hf-files.js";
import type { HfRendererOptions } from "./hf-options.js";
import { hfChatTemplate } from "./hf-template.js";
import type { Renderer } from "./renderer-contract.js";

export { specialTokenText, templateMessage } from "./hf-template.js";

/** Where the turns of `messages` start: at 0 and after every assistant message that a non-assistant one follows. */
export function turnStarts(messages: readonly Message[]): number[] {
  const starts = messages.length === 0 ? [] : [0];
  for (let i = 1; i < messages.length; i++)
    if (messages[i - 1]!.role === "assistant" && messages[i]!.role !== "assistant") starts.push(i);
  return starts;
}

/** `message` with the first `cut` characters (code points) of its text removed. */
function withoutStart(message: Message, cut: number): Message {
  return { ...message, content: Array.from(message.content).slice(cut).join("") };
}

interface Encoder {
  encode(messages: readonly Message[]): number[];
}

/** The newest turn alone passes the budget: the fewest leading characters of its last message cut to fit. */
function cutToFit(encoder: Encoder, system: readonly Message[], turn: readonly Message[], budget: number): number[] {
  const last = turn[turn.length - 1]!;
  const head = [...system, ...turn.slice(0, -1)];
  let low = 1;
  let high = Array.from(last.content).length;
  const fitted = encoder.encode([...head, withoutStart(last, high)]);
  // The prompt cannot fit: the episode ends at the model's context (stop reason context_length, a failure of the
  // agent as with any model whose context is full), not in a policy error that would stop an RL run.
  if (fitted.length > budget)
    throw new ContextLengthError(
      `the prompt needs ${fitted.length} tokens without the newest message's text, more than the ${budget} the context leaves (raise --context-length, or lower --max-new-tokens)`,
    );
  while (low < high) {
    const mid = Math.floor((low + high) / 2);
    if (encoder.encode([...head, withoutStart(last, mid)]).length <= budget) high = mid;
    else low = mid + 1;
  }
  return encoder.encode([...head, withoutStart(last, high)]);
}

/** The prompt of `conversation` within `budget` tokens: the oldest whole turns dropped, the leading system messages kept. */
export function fittedPrompt(encoder: Encoder, conversation: readonly Message[], budget: number): number[] {
  const firstOther = conversation.findIndex((message) => message.role !== "system");
  const split = firstOther === -1 ? conversation.length : firstOther;
  const system = conversation.slice(0, split);
  const rest = conversation.slice(split);
  const starts = turnStarts(rest);
  if (starts.length === 0) return encoder.encode(system);
  for (const start of starts) {
    const tokens = encoder.encode([...system, ...rest.slice(start)]);
    if (tokens.length <= budget) return tokens;
  }
  return cutToFit(encoder, system, rest.slice(starts[starts.length - 1]!), budget);
}

/** The renderer of a model's tokenizer files for a model of `contextLength` tokens with replies of at most `maxNewTokens`. */
export function hfRenderer(
  name: string,
  files: HfTokenizerFiles,
  contextLength: number,
  maxNewTokens: number,
  settings: Partial<HfRendererOptions> = {},
): Renderer {
  const chat = hfChatTemplate(files, settings);
  const { stopTokens, format } = chat;
  const stops = new Set(stopTokens);
  const render = (messages: readonly Message[], tools: readonly ToolSpec[]): string => chat.render(messages, tools);
  const encoderOf = (tools: readonly ToolSpec[]): Encoder => ({
    encode: (messages) => chat.encode(render(messages, tools)),
  });
  const textOf = (tools: readonly ToolSpec[]): TemplateText => ({
    render: (messages) => render(messages, tools),
    encode: chat.encode,
    stopText: (token) => (stops.has(token) ? chat.decode([token]) : undefined),
  });
  const budget = contextRule(contextLength, maxNewTokens).budget;
  const prompt: Renderer["prompt"] = (conversation, previous, tools = []) => {
    const extended = previous !== undefined ? extendedPrompt(textOf(tools), conversation, previous) : undefined;
    return extended !== undefined && extended.length <= budget
      ? extended
      : fittedPrompt(encoderOf(tools), conversation, budget);
  };
  return {
    name,
    stopTokens,
    prompt,
    episodeSequences: (episode, replies, sampledPrompt) =>
      promptSequences(
        (conversation, previous, turn) => sampledPrompt?.(turn)?.slice() ?? prompt(conversation, previous),
        episode,
        replies,
        true,
      ),
    decode: (tokens, tools = []) => {
      const text = chat.decode(tokens.filter((token) => !stops.has(token)));
      if (tools.length === 0 || format === undefined) return { role: "assistant", content: text };
      const parsed = parseToolCalls(text, format);
      return assistantMessage(parsed.content, parsed.toolCalls);
    },
    responseTokens: (reply) => [
      ...chat.encode(
        format === undefined ? reply.content : writeToolCalls(reply.content, reply.toolCalls ?? [], format),
      ),
      stopTokens[0]!,
    ],
  };
}
