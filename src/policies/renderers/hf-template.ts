// A Hugging Face model's tokenizer and chat template, loaded from the files of hf-files.ts with the options of
// hf-options.ts (@huggingface/tokenizers for tokenizer.json, @huggingface/jinja, an interpreter of the template
// language, for the template: nothing is eval'd). The core both of the hf:DIR renderer of Tinker runs
// (hf-renderer.ts, which adds the context window and the episode's one sequence) and of `budgetrl serve
// --renderer hf:DIR`.
//
// - render: the conversation through the chat template, with the tools (OpenAI function schemas, `tools`, as
//   transformers' apply_chat_template(tools=...) and vLLM pass them; none when there are none), the special
//   tokens of tokenizer_config (bos_token, eos_token, ...) and the template options (enable_thinking, ...) as
//   template variables, and add_generation_prompt (true unless asked otherwise); a request's own variables (vLLM's
//   chat_template_kwargs) go over the options.
// - encode: text to ids without adding special tokens (only those the template writes); decode: ids to text,
//   special tokens spelled out ("" for none; ids outside the vocabulary give no text: never an error).
// - stopTokens: the id of tokenizer_config's eos_token, then generation_config.json's eos_token_id ids.
// - format: how replies write tool calls (the option, or for auto the one the template teaches).
import { Template } from "@huggingface/jinja";
import { Tokenizer } from "@huggingface/tokenizers";
import { ConfigError, thrownMessage } from "../../core/errors.js";
import type { JsonObject } from "../../core/json.js";
import { systemMessage, userMessage, type Message, type ToolSpec } from "../../core/message.js";
import { chatTools } from "../openai/request.js";
import type { ToolCallFormat } from "../tool-call-text.js";
import type { HfTokenizerFiles } from "./hf-files.js";
import {
  DEFAULT_HF_RENDERER_OPTIONS,
  resolveToolCallFormat,
  SPECIAL_TOKEN_FIELDS,
  type HfRendererOptions,
} from "./hf-options.js";

/** A special token of tokenizer_config: its text, written as a string or as an AddedToken object {content}. */
export function specialTokenText(value: unknown): string | undefined {
  if (typeof value === "string") return value;
  if (value !== null && typeof value === "object" && typeof (value as { content?: unknown }).content === "string")
    return (value as { content: string }).content;
  return undefined;
}

/** The template variables of the special tokens tokenizer_config names. */
function specialTokenVariables(config: JsonObject): Record<string, string> {
  const out: Record<string, string> = {};
  for (const field of SPECIAL_TOKEN_FIELDS) {
    const text = specialTokenText(config[field]);
    if (text !== undefined) out[field] = text;
  }
  return out;
}

/** A tool call's arguments as templates expect them: the parsed JSON object when the text is one, else the text. */
function callArguments(text: string): unknown {
  try {
    const value: unknown = JSON.parse(text);
    return value !== null && typeof value === "object" && !Array.isArray(value) ? value : text;
  } catch {
    return text;
  }
}

/** A message as chat templates read it (OpenAI's shape: tool_calls with function {name, arguments}, tool_call_id). */
export function templateMessage(message: Message): Record<string, unknown> {
  return {
    role: message.role,
    content: message.content,
    ...(message.toolCalls === undefined || message.toolCalls.length === 0
      ? {}
      : {
          tool_calls: message.toolCalls.map((call) => ({
            id: call.id,
            type: "function",
            function: { name: call.name, arguments: callArguments(call.arguments) },
          })),
        }),
    ...(message.toolCallId === undefined ? {} : { tool_call_id: message.toolCallId }),
  };
}

export interface RenderOptions {
  /** Default true. */
  readonly addGenerationPrompt?: boolean;
  /** Variables over the renderer's own (a request's chat_template_kwargs). */
  readonly variables?: Readonly<Record<string, unknown>>;
}

export interface HfChatTemplate {
  readonly files: HfTokenizerFiles;
  readonly tokenizer: Tokenizer;
  readonly stopTokens: readonly number[];
  /** How replies write tool calls; undefined: they are read as text. */
  readonly format: ToolCallFormat | undefined;
  render(messages: readonly Message[], tools: readonly ToolSpec[], options?: RenderOptions): string;
  encode(text: string): number[];
  decode(tokens: readonly number[]): string;
}

function tokenId(tokenizer: Tokenizer, text: string, what: string): number {
  const id = tokenizer.token_to_id(text);
  if (id === undefined)
    throw new ConfigError(
      "renderer",
      `${what} ${JSON.stringify(text)} is not a token of tokenizer.json`,
      "tokenizer.json and tokenizer_config.json must come from the same model",
    );
  return id;
}

/** The tokenizer and chat template of a model's files; a bad one is a ConfigError naming `renderer`. */
export function hfChatTemplate(files: HfTokenizerFiles, settings: Partial<HfRendererOptions> = {}): HfChatTemplate {
  let tokenizer: Tokenizer;
  let template: Template;
  try {
    tokenizer = new Tokenizer(files.tokenizer, files.config);
    template = new Template(files.chatTemplate);
  } catch (error) {
    throw new ConfigError(
      "renderer",
      `${files.dir}: cannot load the tokenizer or chat template: ${thrownMessage(error)}`,
    );
  }
  const { templateOptions, toolCallFormat } = { ...DEFAULT_HF_RENDERER_OPTIONS, ...settings };
  const variables = { ...templateOptions, ...specialTokenVariables(files.config) };
  const eos = variables.eos_token;
  if (typeof eos !== "string")
    throw new ConfigError(
      "renderer",
      `${files.dir}/tokenizer_config.json names no eos_token`,
      "the renderer stops replies at the eos token",
    );
  const stopTokens = [...new Set([tokenId(tokenizer, eos, "eos_token"), ...files.generationEosIds])];
  const chat: HfChatTemplate = {
    files,
    tokenizer,
    stopTokens,
    format: resolveToolCallFormat(toolCallFormat, files.chatTemplate),
    render: (messages, tools, options = {}) =>
      template.render({
        ...variables,
        ...options.variables,
        messages: messages.map(templateMessage),
        ...(tools.length === 0 ? {} : { tools: chatTools(tools) }),
        add_generation_prompt: options.addGenerationPrompt ?? true,
      }),
    encode: (text) => tokenizer.encode(text, { add_special_tokens: false }).ids,
    decode: (tokens) => (tokens.length === 0 ? "" : tokenizer.decode([...tokens], { skip_special_tokens: false })),
  };
  try {
    chat.encode(chat.render([systemMessage("s"), userMessage("u")], []));
  } catch (error) {
    throw new ConfigError(
      "renderer",
      `${files.dir}: the chat template fails on a system and a user message: ${thrownMessage(error)}`,
    );
  }
  return chat;
}
