// A chat-completions request body (untrusted JSON) to a typed request, or a 400 naming the bad field
// (`messages[1].role: ...`). Fields and defaults:
//
//   model                      required; must be the served model's name (checked by the server: 404)
//   messages                   required, at least one: system / developer (as system), user, assistant (content
//                              may be null with tool_calls), tool (tool_call_id); content a string or text parts
//                              (joined with "\n")
//   sampling fields            sampling-options.ts (temperature, top_p, n, max_tokens or max_completion_tokens,
//                              seed, stop, stop_token_ids, ignore_eos, min_tokens, include_stop_str_in_output,
//                              return_token_ids, return_tokens_as_token_ids, stream, stream_options)
//   logprobs false             the sampled tokens' log-probs; top_logprobs 0..20 alternatives each (needs logprobs)
//   tools, tool_choice         tools are checked as OpenAI and vLLM check them: each {type: "function" (the
//                              default), function: {name, description?, parameters?, strict?}}, with parameters a
//                              JSON Schema object (a JSON object; its type, if given, "object"; properties an
//                              object; required a list of names). tool_choice "none", "auto" (the default with
//                              tools), "required" or {type: "function", function: {name}} naming one of the tools
//                              (tool-choice.ts says what each does)
//   parallel_tool_calls true   false: at most one call per reply
//   response_format, structured_outputs, guided_json, guided_choice   structured-output.ts
//   chat_template_kwargs {}    variables for the renderer's chat template (its reserved names refused)
//   add_generation_prompt true false: the prompt ends after the last message (no assistant header)
//   continue_final_message     the last message (the assistant's) is continued: the prompt ends inside it (needs
//                              add_generation_prompt false, as vLLM asks)
//   documents                  for the chat template (a renderer without one refuses them)
// Every other field is refused, ignored or accepted at its neutral value by the lists of fields.ts; unknown fields
// are ignored (ignoredFields) or, with strict, refused.
import { z } from "zod";
import type { Message, ToolCall } from "../core/message.js";
import { RESERVED_TEMPLATE_VARIABLES } from "../policies/renderers/hf-options.js";
import { badRequest } from "./errors.js";
import { checkFields } from "./fields.js";
import { samplingFields, samplingRequest, type SamplingRequest } from "./sampling-options.js";
import { structuredOutput, type StructuredOutput } from "./structured-output.js";
import { byteVocabulary, type Vocabulary } from "./vocabulary.js";

/** A tool offered: its name, description and the JSON Schema of its arguments (undefined: none given). */
export interface ToolDefinition {
  readonly name: string;
  readonly description?: string;
  readonly parameters: Readonly<Record<string, unknown>> | undefined;
}

/** How a body is read: the model's vocabulary (default: the byte tokenizer's of `vocab` ids), and whether unknown
 * fields are refused (default: ignored). */
export interface ParseOptions {
  readonly vocabulary?: Vocabulary;
  readonly strict?: boolean;
}

export type ToolChoice = "none" | "auto" | "required" | { readonly name: string };

export interface ChatRequest {
  readonly model: string;
  readonly messages: readonly Message[];
  readonly sampling: SamplingRequest;
  readonly logprobs: boolean;
  /** Alternatives per sampled token (0..20). */
  readonly topLogprobs: number;
  readonly tools: readonly ToolDefinition[];
  readonly toolChoice: ToolChoice;
  readonly parallelToolCalls: boolean;
  readonly structured: StructuredOutput | undefined;
  readonly templateKwargs: Readonly<Record<string, unknown>>;
  readonly addGenerationPrompt: boolean;
  readonly continueFinalMessage: boolean;
  readonly documents: readonly Readonly<Record<string, unknown>>[];
  /** Fields the body has that serve does not know, ignored (sorted). */
  readonly ignoredFields: readonly string[];
}

const textPart = z.object({
  type: z.literal("text", { error: 'only text parts are supported ({"type": "text", "text": ...})' }),
  text: z.string(),
});
const content = z
  .union([z.string(), z.array(textPart)], { error: "expected a string or an array of text parts" })
  .nullable()
  .optional();
const toolCall = z.object({
  id: z.string().optional(),
  type: z.literal("function").optional(),
  function: z.object({
    name: z.string(),
    arguments: z.union([z.string(), z.record(z.string(), z.unknown())]).optional(),
  }),
});
const message = z.object({
  role: z.enum(["system", "developer", "user", "assistant", "tool"], {
    error: "expected one of system, developer, user, assistant, tool",
  }),
  content,
  tool_calls: z.array(toolCall).nullable().optional(),
  tool_call_id: z.string().optional(),
});

/** A tool's parameters: a JSON Schema object for the function's arguments (always a JSON object). */
const toolParameters = z
  .record(z.string(), z.unknown(), {
    error: 'expected a JSON Schema object, e.g. {"type": "object", "properties": {...}}',
  })
  .superRefine((schema, context) => {
    if (schema["type"] !== undefined && schema["type"] !== "object")
      context.addIssue({
        code: "custom",
        path: ["type"],
        message: `a function's arguments are a JSON object: expected "object", got ${JSON.stringify(schema["type"])}`,
      });
    const properties = schema["properties"];
    if (
      properties !== undefined &&
      (properties === null || typeof properties !== "object" || Array.isArray(properties))
    )
      context.addIssue({
        code: "custom",
        path: ["properties"],
        message: "expected an object of JSON Schemas, one per argument",
      });
    const required = schema["required"];
    if (required !== undefined && !(Array.isArray(required) && required.every((name) => typeof name === "string")))
      context.addIssue({ code: "custom", path: ["required"], message: "expected an array of argument names" });
  });
const tool = z.object(
  {
    type: z.literal("function", { error: 'expected "function"' }).optional(),
    function: z.object(
      {
        name: z.string({ error: "expected the function's name" }).min(1, { error: "expected the function's name" }),
        description: z.string({ error: "expected a string" }).nullable().optional(),
        parameters: toolParameters.nullable().optional(),
        strict: z.boolean({ error: "expected true or false" }).nullable().optional(),
      },
      { error: "expected an object {name, description, parameters}" },
    ),
  },
  { error: 'expected a tool, {"type": "function", "function": {...}}' },
);

const namedChoice = z.object({
  type: z.literal("function", { error: 'expected "function"' }).optional(),
  function: z.object({ name: z.string({ error: "expected the function's name" }) }, { error: "expected {name}" }),
});
const toolChoice = z.union([z.enum(["none", "auto", "required"]), namedChoice], {
  error: 'expected "none", "auto", "required" or {"type": "function", "function": {"name": ...}}',
});

const bodySchema = z.object({
  ...samplingFields,
  model: z.string({ error: "expected the model's name" }),
  messages: z
    .array(message, { error: "expected an array of messages" })
    .min(1, { error: "needs at least one message" }),
  max_completion_tokens: samplingFields.max_tokens,
  logprobs: z.boolean().nullable().optional(),
  top_logprobs: z
    .number()
    .int({ error: "expected an integer from 0 to 20" })
    .min(0, { error: "expected an integer from 0 to 20" })
    .max(20, { error: "expected an integer from 0 to 20" })
    .nullable()
    .optional(),
  tools: z.array(tool, { error: "expected an array of tools" }).nullable().optional(),
  tool_choice: toolChoice.nullable().optional(),
  parallel_tool_calls: z.boolean().nullable().optional(),
  chat_template_kwargs: z
    .record(z.string(), z.unknown(), { error: "expected an object of template variables" })
    .nullable()
    .optional(),
  add_generation_prompt: z.boolean().nullable().optional(),
  continue_final_message: z.boolean().nullable().optional(),
  documents: z
    .array(z.record(z.string(), z.unknown()), { error: "expected an array of objects" })
    .nullable()
    .optional(),
});

type Body = z.output<typeof bodySchema>;

/** `messages.1.role` as `messages[1].role`. */
function paramOf(path: readonly PropertyKey[]): string {
  return (
    path.map((key, i) => (typeof key === "number" ? `[${key}]` : `${i === 0 ? "" : "."}${String(key)}`)).join("") ||
    "body"
  );
}

/** The value at a path of the raw body (undefined where it is missing). */
function valueAt(raw: unknown, path: readonly PropertyKey[]): unknown {
  let value = raw;
  for (const key of path) {
    if (value === null || typeof value !== "object") return undefined;
    value = (value as Record<PropertyKey, unknown>)[key];
  }
  return value;
}

/** The tool choice, checked against the tools offered. */
function toolChoiceOf(body: Body, tools: readonly ToolDefinition[]): ToolChoice {
  const choice = body.tool_choice ?? (tools.length > 0 ? "auto" : "none");
  if (choice === "none" || choice === "auto") return choice;
  if (tools.length === 0) throw badRequest("tool_choice", "needs tools: a call is asked for, but no tools are offered");
  if (choice === "required") return choice;
  const name = choice.function.name;
  if (!tools.some((tool) => tool.name === name))
    throw badRequest(
      "tool_choice.function.name",
      `no tool is named ${JSON.stringify(name)} (the tools offered: ${tools.map((tool) => tool.name).join(", ")})`,
    );
  return { name };
}

function contentText(value: z.output<typeof content>): string {
  if (value === undefined || value === null) return "";
  return typeof value === "string" ? value : value.map((part) => part.text).join("\n");
}

function toolCallOf(call: z.output<typeof toolCall>, index: number, at: number): ToolCall {
  const args = call.function.arguments;
  return {
    id: call.id ?? `call_${at}_${index}`,
    name: call.function.name,
    arguments: typeof args === "string" ? args : args === undefined ? "" : JSON.stringify(args),
  };
}

/** A request message as the conversation the policy renders. */
function messageOf(raw: z.output<typeof message>, at: number): Message {
  const text = contentText(raw.content);
  if (raw.role === "system" || raw.role === "developer") return { role: "system", content: text };
  if (raw.role === "tool")
    return { role: "tool", content: text, ...(raw.tool_call_id === undefined ? {} : { toolCallId: raw.tool_call_id }) };
  if (
    raw.role === "assistant" &&
    raw.tool_calls !== undefined &&
    raw.tool_calls !== null &&
    raw.tool_calls.length > 0
  ) {
    return {
      role: "assistant",
      content: text,
      toolCalls: raw.tool_calls.map((call, index) => toolCallOf(call, index, at)),
    };
  }
  return { role: raw.role, content: text };
}

/** The template variables of chat_template_kwargs (the names the renderer sets itself refused). */
function templateKwargs(body: Body): Readonly<Record<string, unknown>> {
  const kwargs = body.chat_template_kwargs ?? {};
  const reserved = Object.keys(kwargs).find((name) =>
    (RESERVED_TEMPLATE_VARIABLES as readonly string[]).includes(name),
  );
  if (reserved !== undefined)
    throw badRequest(`chat_template_kwargs.${reserved}`, "is set by the renderer, not a template variable");
  return kwargs;
}

/** add_generation_prompt and continue_final_message, checked together as vLLM checks them. */
function promptEnd(body: Body, messages: readonly Message[]): { add: boolean; continue: boolean } {
  const add = body.add_generation_prompt ?? true;
  const continuing = body.continue_final_message ?? false;
  if (continuing && add)
    throw badRequest(
      "continue_final_message",
      "cannot be combined with add_generation_prompt true (set add_generation_prompt: false to continue the last message)",
    );
  if (continuing && messages[messages.length - 1]!.role !== "assistant")
    throw badRequest("continue_final_message", "needs the last message to be the assistant's (the one continued)");
  return { add, continue: continuing };
}

/** The typed request, or an HttpError (400) naming the first bad field. `maxN` bounds n, `vocab` the token ids. */
export function parseChatRequest(raw: unknown, maxN: number, vocab: number, options: ParseOptions = {}): ChatRequest {
  if (raw === null || typeof raw !== "object" || Array.isArray(raw))
    throw badRequest(null, "the body must be a JSON object", "invalid_type");
  const parsed = bodySchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const missing = issue.code === "invalid_type" && valueAt(raw, issue.path) === undefined;
    throw badRequest(
      paramOf(issue.path),
      missing ? "is required" : issue.message,
      missing ? "missing_required_parameter" : issue.code === "invalid_type" ? "invalid_type" : "invalid_value",
    );
  }
  const body = parsed.data;
  const ignoredFields = checkFields(raw as Record<string, unknown>, "chat", options.strict ?? false);
  const logprobs = body.logprobs ?? false;
  const topLogprobs = body.top_logprobs ?? 0;
  if (topLogprobs > 0 && !logprobs) throw badRequest("top_logprobs", "needs logprobs: true");
  const tools = (body.tools ?? []).map((entry): ToolDefinition => ({
    name: entry.function.name,
    ...(typeof entry.function.description === "string" ? { description: entry.function.description } : {}),
    parameters: entry.function.parameters ?? undefined,
  }));
  const messages = body.messages.map(messageOf);
  const end = promptEnd(body, messages);
  const toolChoice = toolChoiceOf(body, tools);
  const structured = structuredOutput(raw as Record<string, unknown>);
  if (structured !== undefined && (toolChoice === "required" || typeof toolChoice === "object"))
    throw badRequest(
      structured.field,
      'cannot be combined with tool_choice "required" or a named function (the call\'s schema decides the reply)',
    );
  return {
    model: body.model,
    messages,
    sampling: samplingRequest(
      { ...body, max_tokens: body.max_tokens ?? body.max_completion_tokens ?? null },
      maxN,
      options.vocabulary ?? byteVocabulary(vocab),
    ),
    logprobs,
    topLogprobs,
    tools,
    toolChoice,
    parallelToolCalls: body.parallel_tool_calls ?? true,
    structured,
    templateKwargs: templateKwargs(body),
    addGenerationPrompt: end.add,
    continueFinalMessage: end.continue,
    documents: body.documents ?? [],
    ignoredFields,
  };
}
