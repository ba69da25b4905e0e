// A chat-completions request body (untrusted JSON) to a typed request, or a 400 naming the bad field
// (`messages[1].role: ...`). Fields and defaults:
//
//   model                      required; must be the served model's name (checked by the server: 404)
//   messages                   required, at least one: system / developer (as system), user, assistant (content
//                              may be null with tool_calls), tool (tool_call_id); content a string or text parts
//                              (joined with "\n")
//   temperature 1, top_p 1     0 <= temperature <= 2 (0: greedy), 0 < top_p <= 1
//   n 1                        1..maxN choices
//   max_tokens                 (or max_completion_tokens) >= 1; unset: the checkpoint's answer length
//   seed 0                     any safe integer; the first choice is sampled with it (choices.ts)
//   logprobs false             the sampled tokens' log-probs; top_logprobs above 0 is refused (alternatives are
//                              not computed)
//   return_token_ids, return_tokens_as_token_ids    vLLM's token-id fields
//   stream false, stream_options.include_usage     Server-Sent Events
//   tools, tool_choice         tools are checked as OpenAI and vLLM check them, then not shown to the model (the
//                              tiny policy does not see them either): each {type: "function" (the default),
//                              function: {name, description?, parameters?, strict?}}, with parameters a JSON
//                              Schema object (a JSON object; its type, if given, "object"; properties an object;
//                              required a list of names); tool_choice "auto" or "none" only
// Fields that would change the answer and cannot be honoured are refused when set to anything but their
// neutral value (stop, logit_bias, presence_penalty, frequency_penalty, response_format other than text,
// top_k, min_p, repetition_penalty). Any other field is ignored (user, metadata, ...).
import { z } from "zod";
import type { Message, ToolCall } from "../core/message.js";
import { badRequest } from "./errors.js";

export interface ChatRequest {
  readonly model: string;
  readonly messages: readonly Message[];
  readonly temperature: number;
  readonly topP: number;
  readonly n: number;
  /** Unset: the checkpoint's default answer length. */
  readonly maxTokens: number | undefined;
  readonly seed: number;
  readonly logprobs: boolean;
  readonly returnTokenIds: boolean;
  readonly tokensAsIds: boolean;
  readonly stream: boolean;
  readonly includeUsage: boolean;
  /** Tools offered (accepted, not rendered). */
  readonly tools: number;
}

const textPart = z.object({ type: z.literal("text", { error: 'only text parts are supported ({"type": "text", "text": ...})' }), text: z.string() });
const content = z.union([z.string(), z.array(textPart)], { error: "expected a string or an array of text parts" }).nullable().optional();
const toolCall = z.object({
  id: z.string().optional(),
  type: z.literal("function").optional(),
  function: z.object({ name: z.string(), arguments: z.union([z.string(), z.record(z.string(), z.unknown())]).optional() }),
});
const message = z.object({
  role: z.enum(["system", "developer", "user", "assistant", "tool"], { error: "expected one of system, developer, user, assistant, tool" }),
  content,
  tool_calls: z.array(toolCall).nullable().optional(),
  tool_call_id: z.string().optional(),
});

/** A tool's parameters: a JSON Schema object for the function's arguments (always a JSON object). */
const toolParameters = z
  .record(z.string(), z.unknown(), { error: "expected a JSON Schema object, e.g. {\"type\": \"object\", \"properties\": {...}}" })
  .superRefine((schema, context) => {
    if (schema["type"] !== undefined && schema["type"] !== "object") context.addIssue({ code: "custom", path: ["type"], message: `a function's arguments are a JSON object: expected "object", got ${JSON.stringify(schema["type"])}` });
    const properties = schema["properties"];
    if (properties !== undefined && (properties === null || typeof properties !== "object" || Array.isArray(properties))) context.addIssue({ code: "custom", path: ["properties"], message: "expected an object of JSON Schemas, one per argument" });
    const required = schema["required"];
    if (required !== undefined && !(Array.isArray(required) && required.every((name) => typeof name === "string"))) context.addIssue({ code: "custom", path: ["required"], message: "expected an array of argument names" });
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

const optionalNumber = (check: z.ZodNumber) => check.nullable().optional();

const bodySchema = z.object({
  model: z.string({ error: "expected the model's name" }),
  messages: z.array(message, { error: "expected an array of messages" }).min(1, { error: "needs at least one message" }),
  temperature: optionalNumber(z.number().min(0, { error: "expected a number from 0 to 2" }).max(2, { error: "expected a number from 0 to 2" })),
  top_p: optionalNumber(z.number().gt(0, { error: "expected a number in (0, 1]" }).max(1, { error: "expected a number in (0, 1]" })),
  n: optionalNumber(z.number().int({ error: "expected an integer >= 1" }).min(1, { error: "expected an integer >= 1" })),
  max_tokens: optionalNumber(z.number().int({ error: "expected an integer >= 1" }).min(1, { error: "expected an integer >= 1" })),
  max_completion_tokens: optionalNumber(z.number().int({ error: "expected an integer >= 1" }).min(1, { error: "expected an integer >= 1" })),
  // zod's int() is a safe integer.
  seed: optionalNumber(z.number().int({ error: "expected a safe integer" })),
  logprobs: z.boolean().nullable().optional(),
  top_logprobs: optionalNumber(z.number().int().min(0).max(20)),
  return_token_ids: z.boolean().nullable().optional(),
  return_tokens_as_token_ids: z.boolean().nullable().optional(),
  stream: z.boolean().nullable().optional(),
  stream_options: z.object({ include_usage: z.boolean().nullable().optional() }).nullable().optional(),
  tools: z.array(tool, { error: "expected an array of tools" }).nullable().optional(),
  tool_choice: z.unknown().optional(),
});

type Body = z.output<typeof bodySchema>;

/** `messages.1.role` as `messages[1].role`. */
function paramOf(path: readonly PropertyKey[]): string {
  return path.map((key, i) => (typeof key === "number" ? `[${key}]` : `${i === 0 ? "" : "."}${String(key)}`)).join("") || "body";
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

/** Fields that change the answer, with whether a value is neutral (then they are accepted and ignored). */
const UNSUPPORTED: readonly (readonly [string, (value: unknown) => boolean])[] = [
  ["stop", (value) => value === null || (Array.isArray(value) && value.length === 0)],
  ["logit_bias", (value) => value === null || (typeof value === "object" && Object.keys(value as object).length === 0)],
  ["presence_penalty", (value) => value === null || value === 0],
  ["frequency_penalty", (value) => value === null || value === 0],
  ["response_format", (value) => value === null || (typeof value === "object" && (value as { type?: unknown }).type === "text")],
  ["top_k", (value) => value === null || value === 0 || value === -1],
  ["min_p", (value) => value === null || value === 0],
  ["repetition_penalty", (value) => value === null || value === 1],
];

function refuseUnsupported(raw: Record<string, unknown>, body: Body): void {
  for (const [field, neutral] of UNSUPPORTED) {
    if (field in raw && !neutral(raw[field])) throw badRequest(field, "is not supported by budgetrl serve (its byte-level models sample with temperature and top_p only)");
  }
  if ((body.top_logprobs ?? 0) > 0) throw badRequest("top_logprobs", "is not supported by budgetrl serve: it returns the log-prob of each sampled token only (logprobs: true)");
  const choice = body.tool_choice;
  if (choice !== undefined && choice !== null && choice !== "auto" && choice !== "none") throw badRequest("tool_choice", 'only "auto" and "none" are supported: the model writes text and never a forced call');
}

function contentText(value: z.output<typeof content>): string {
  if (value === undefined || value === null) return "";
  return typeof value === "string" ? value : value.map((part) => part.text).join("\n");
}

function toolCallOf(call: z.output<typeof toolCall>, index: number, at: number): ToolCall {
  const args = call.function.arguments;
  return { id: call.id ?? `call_${at}_${index}`, name: call.function.name, arguments: typeof args === "string" ? args : args === undefined ? "" : JSON.stringify(args) };
}

/** A request message as the conversation the policy renders. */
function messageOf(raw: z.output<typeof message>, at: number): Message {
  const text = contentText(raw.content);
  if (raw.role === "system" || raw.role === "developer") return { role: "system", content: text };
  if (raw.role === "tool") return { role: "tool", content: text, ...(raw.tool_call_id === undefined ? {} : { toolCallId: raw.tool_call_id }) };
  if (raw.role === "assistant" && raw.tool_calls !== undefined && raw.tool_calls !== null && raw.tool_calls.length > 0) {
    return { role: "assistant", content: text, toolCalls: raw.tool_calls.map((call, index) => toolCallOf(call, index, at)) };
  }
  return { role: raw.role, content: text };
}

/** The typed request, or an HttpError (400) naming the first bad field. `maxN` bounds n. */
export function parseChatRequest(raw: unknown, maxN: number): ChatRequest {
  if (raw === null || typeof raw !== "object" || Array.isArray(raw)) throw badRequest(null, "the body must be a JSON object");
  const parsed = bodySchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw badRequest(paramOf(issue.path), issue.code === "invalid_type" && valueAt(raw, issue.path) === undefined ? "is required" : issue.message);
  }
  const body = parsed.data;
  refuseUnsupported(raw as Record<string, unknown>, body);
  const n = body.n ?? 1;
  if (n > maxN) throw badRequest("n", `at most ${maxN} choices per request (budgetrl serve --max-n)`);
  return {
    model: body.model,
    messages: body.messages.map(messageOf),
    temperature: body.temperature ?? 1,
    topP: body.top_p ?? 1,
    n,
    maxTokens: body.max_tokens ?? body.max_completion_tokens ?? undefined,
    seed: body.seed ?? 0,
    logprobs: body.logprobs ?? false,
    returnTokenIds: body.return_token_ids ?? false,
    tokensAsIds: body.return_tokens_as_token_ids ?? false,
    stream: body.stream ?? false,
    includeUsage: body.stream_options?.include_usage ?? false,
    tools: body.tools?.length ?? 0,
  };
}

