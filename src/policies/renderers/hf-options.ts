// The options of the hf:DIR renderer, declared once and parsed with the run's config (errors name the field):
//
// - templateOptions: extra variables for the chat template, as vLLM's chat_template_kwargs and transformers'
//   apply_chat_template(**kwargs) pass them; e.g. Qwen3's enable_thinking (a boolean: false writes an empty
//   <think></think> after the generation prompt). The names the renderer sets itself (messages, tools,
//   add_generation_prompt, the special tokens) are refused.
// - toolCallFormat: how a reply's tool calls are read back when the env offers tools (policies/tool-call-text.ts):
//   hermes (Qwen's <tool_call> blocks), llama3-json, none (replies stay text), or auto: hermes when the template
//   writes <tool_call>, llama3-json when it asks for "parameters", else none.
import { z } from "zod";
import { TOOL_CALL_FORMATS, type ToolCallFormat } from "../tool-call-text.js";

/** The special tokens of tokenizer_config that the renderer passes to the template under their own names. */
export const SPECIAL_TOKEN_FIELDS = [
  "bos_token",
  "eos_token",
  "unk_token",
  "pad_token",
  "sep_token",
  "cls_token",
  "mask_token",
] as const;

/** Template variables the renderer sets itself. */
export const RESERVED_TEMPLATE_VARIABLES = [
  "messages",
  "tools",
  "documents",
  "add_generation_prompt",
  "continue_final_message",
  ...SPECIAL_TOKEN_FIELDS,
] as const;

/** Template options whose type is known are checked when the config is parsed; any other name takes any JSON. */
export const templateOptionsField = z
  .object({ enable_thinking: z.boolean().optional() })
  .catchall(z.json())
  .default({})
  .superRefine((options, context) => {
    for (const name of Object.keys(options)) {
      if ((RESERVED_TEMPLATE_VARIABLES as readonly string[]).includes(name))
        context.addIssue({
          code: "custom",
          message: `${name} is set by the renderer, not a template option`,
          path: [name],
        });
    }
  })
  .describe(
    "hf renderer: chat-template variables, KEY=VALUE (VALUE read as JSON, else text), e.g. enable_thinking=false (Qwen3)",
  );

export type TemplateOptions = Readonly<z.output<typeof templateOptionsField>>;

export const TOOL_CALL_OPTIONS = ["auto", "none", ...TOOL_CALL_FORMATS] as const;
export type ToolCallOption = (typeof TOOL_CALL_OPTIONS)[number];

export const toolCallFormatField = z
  .enum(TOOL_CALL_OPTIONS)
  .default("auto")
  .describe(
    "hf renderer: how replies' tool calls are parsed when the env offers tools: hermes (<tool_call> blocks, Qwen), llama3-json, none, or auto (from the chat template)",
  );

export interface HfRendererOptions {
  readonly templateOptions: TemplateOptions;
  readonly toolCallFormat: ToolCallOption;
}

export const DEFAULT_HF_RENDERER_OPTIONS: HfRendererOptions = Object.freeze({
  templateOptions: Object.freeze({}),
  toolCallFormat: "auto",
});

/** The tool-call format a renderer reads with: the option, or for "auto" the one the template teaches (undefined: none). */
export function resolveToolCallFormat(option: ToolCallOption, chatTemplate: string): ToolCallFormat | undefined {
  if (option === "none") return undefined;
  if (option !== "auto") return option;
  if (chatTemplate.includes("<tool_call>")) return "hermes";
  if (chatTemplate.includes('"parameters"')) return "llama3-json";
  return undefined;
}
