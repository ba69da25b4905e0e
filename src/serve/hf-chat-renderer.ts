// `budgetrl serve --renderer hf:DIR`: conversations rendered with a Hugging Face model's own chat template and
// tokenizer (the Tinker side's hf-template.ts, with --template-opt and --tool-call-format as in training), as vLLM
// renders them for the model:
//
//   prompt     the messages through the template with the request's tools (OpenAI function schemas) and
//              chat_template_kwargs over the template options, documents when given, add_generation_prompt as
//              asked; continue_final_message ends the prompt at the end of the last message's text in the
//              rendering, as transformers does. Under the tiny context rule the oldest turns are dropped to keep
//              the answer's room (the hf renderer of Tinker runs, hf-renderer.ts fittedPrompt).
//   replies    their tokens' text (vocabulary: hf-vocabulary.ts), read as tool calls in the template's format
//              (hermes <tool_call> blocks, llama3-json) by tool-choice.ts, as vLLM's parsers read them.
// Loaded only for an hf renderer (the HF tokenizer and template packages load with it). A tokenizer whose ids do
// not fit the model's vocabulary is refused at start (ConfigError naming `renderer`).
import { ConfigError, thrownMessage } from "../core/errors.js";
import type { Message, ToolSpec } from "../core/message.js";
import { readHfFiles } from "../policies/renderers/hf-files.js";
import type { HfRendererOptions } from "../policies/renderers/hf-options.js";
import { fittedPrompt } from "../policies/renderers/hf-renderer.js";
import { hfChatTemplate, type HfChatTemplate } from "../policies/renderers/hf-template.js";
import { contextRule } from "../policies/tiny/context.js";
import { ContextLengthError } from "../core/policy.js";
import { badRequest, HttpError } from "./errors.js";
import { hfVocabulary, largestTokenId } from "./hf-vocabulary.js";
import type { ChatRenderer, RenderInput } from "./renderer.js";
import type { ToolDefinition } from "./request.js";

function toolSpecs(tools: readonly ToolDefinition[]): ToolSpec[] {
  return tools.map((tool) => ({
    name: tool.name,
    description: tool.description ?? "",
    parameters: (tool.parameters ?? { type: "object", properties: {} }) as ToolSpec["parameters"],
  }));
}

/** The rendering's text up to the end of the last message's text (transformers' continue_final_message). */
function continued(text: string, last: Message): string {
  const content = last.content.trim();
  const at = text.lastIndexOf(content);
  if (content === "" || at === -1)
    throw badRequest(
      "continue_final_message",
      "the chat template does not write the last message's text, so it cannot be continued",
    );
  return text.slice(0, at + last.content.trimStart().length);
}

function templateText(chat: HfChatTemplate, input: RenderInput): string {
  const tools = toolSpecs(input.tools);
  const variables = {
    ...input.templateKwargs,
    ...(input.documents.length === 0 ? {} : { documents: input.documents }),
  };
  try {
    if (input.continueFinalMessage)
      return continued(
        chat.render(input.messages, tools, { addGenerationPrompt: false, variables }),
        input.messages[input.messages.length - 1]!,
      );
    return chat.render(input.messages, tools, { addGenerationPrompt: input.addGenerationPrompt, variables });
  } catch (error) {
    if (error instanceof HttpError) throw error;
    throw badRequest("messages", `the chat template fails on this conversation: ${thrownMessage(error)}`);
  }
}

export function hfChatRenderer(
  name: string,
  dir: string,
  options: HfRendererOptions,
  model: { readonly vocabSize: number; readonly contextLength: number },
): ChatRenderer {
  const chat = hfChatTemplate(readHfFiles(dir), options);
  const largest = largestTokenId(chat);
  if (largest >= model.vocabSize)
    throw new ConfigError(
      "renderer",
      `${dir}'s tokenizer has ids up to ${largest}, beyond the model's vocabulary (${model.vocabSize} ids)`,
      "serve the checkpoint with the renderer it was trained with",
    );
  return {
    name,
    vocabulary: hfVocabulary(chat, model.vocabSize),
    toolCallFormat: chat.format,
    writesTools: true,
    render(input) {
      const standard = input.addGenerationPrompt && !input.continueFinalMessage;
      if (input.answerRoom !== undefined && standard) {
        const tools = toolSpecs(input.tools);
        const variables = input.templateKwargs;
        const encoder = {
          encode: (messages: readonly Message[]) => chat.encode(chat.render(messages, tools, { variables })),
        };
        const budget = contextRule(model.contextLength, input.answerRoom).budget;
        try {
          return { prompt: fittedPrompt(encoder, input.messages, budget) };
        } catch (error) {
          if (!(error instanceof ContextLengthError)) throw error;
          throw badRequest(
            "messages",
            `This model's maximum context length is ${model.contextLength} tokens: ${error.message}`,
            "context_length_exceeded",
          );
        }
      }
      return { prompt: chat.encode(templateText(chat, input)) };
    },
    remember: () => undefined,
  };
}
