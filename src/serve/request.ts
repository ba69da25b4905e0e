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
// Every other field is refused, ignored or accepted at its neutral value by the lists of fields.ts.
import { z } from "zod";
import type { Message, ToolCall } from "../core/message.js";
import { badRequest } from "./errors.js";
import { refuseUnhonoured } from "./fields.js";
import { samplingFields, samplingRequest, type SamplingRequest } from "./sampling-options.js";

/** A tool offered: its name and the JSON Schema of its arguments (undefined: none given). */
export interface ToolDefinition {
  readonly name: string;
  readonly parameters: Readonly<Record<string, unknown>> | undefined;
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

/** The typed request, or an HttpError (400) naming the first bad field. `maxN` bounds n, `vocab` the token ids. */
export function parseChatRequest(raw: unknown, maxN: number, vocab: number): ChatRequest {
  if (raw === null || typeof raw !== "object" || Array.isArray(raw))
    throw badRequest(null, "the body must be a JSON object");
  const parsed = bodySchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw badRequest(
      paramOf(issue.path),
      issue.code === "invalid_type" && valueAt(raw, issue.path) === undefined ? "is required" : issue.message,
    );
  }
  const body = parsed.data;
  refuseUnhonoured(raw as Record<string, unknown>, "chat");
  const logprobs = body.logprobs ?? false;
  const topLogprobs = body.top_logprobs ?? 0;
  if (topLogprobs > 0 && !logprobs) throw badRequest("top_logprobs", "needs logprobs: true");
  const tools = (body.tools ?? []).map((entry): ToolDefinition => ({
    name: entry.function.name,
    parameters: entry.function.parameters ?? undefined,
  }));
  return {
    model: body.model,
    messages: body.messages.map(messageOf),
    sampling: samplingRequest(
      { ...body, max_tokens: body.max_tokens ?? body.max_completion_tokens ?? null },
      maxN,
      vocab,
    ),
    logprobs,
    topLogprobs,
    tools,
    toolChoice: toolChoiceOf(body, tools),
    parallelToolCalls: body.parallel_tool_calls ?? true,
  };
}
