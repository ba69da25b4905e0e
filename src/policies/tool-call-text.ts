// Tool calls written as text by a model, in the formats real chat templates teach, parsed back into calls (and
// written out again, for the tokens of a reply that holds calls). JSON is read with JSON.parse and the spans of
// json-spans.ts: nothing is evaluated. A call that does not parse never throws: it becomes a call whose name is
// "" (or the name it gave) and whose arguments are the text it wrote, which the env answers as a malformed call.
//
// - hermes (Qwen2.5, Qwen3, Hermes, as vLLM's `hermes` parser): `<tool_call>\n{"name": N, "arguments": {...}}
//   \n</tool_call>` blocks; the content is the text before the first block, its trailing whitespace dropped
//   (the template writes it back: Qwen3's "\n" after text, "\n\n" after </think>); text after the blocks is
//   dropped, as vLLM drops it; a last block cut before `</tool_call>` runs to the end.
// - llama3-json (Llama 3.1 / 3.2 / 3.3 JSON tool calling, as vLLM's `llama3_json`): a reply that starts with
//   `{` (after whitespace and an optional `<|python_tag|>`) is one or more `{"name": N, "parameters": {...}}`
//   objects ("arguments" also read), separated by `;`; the content is then "". Other replies are plain text.
// Arguments keep the text the model wrote for them; a call without arguments gets "{}". Ids are call_0, call_1, ...
// in the reply's order.
import type { ToolCall } from "../core/message.js";
import { jsonValueEnd, objectMembers } from "./json-spans.js";

export const TOOL_CALL_FORMATS = ["hermes", "llama3-json"] as const;
export type ToolCallFormat = (typeof TOOL_CALL_FORMATS)[number];

export interface ParsedReply {
  readonly content: string;
  readonly toolCalls: readonly ToolCall[];
}

const OPEN = "<tool_call>";
const CLOSE = "</tool_call>";
const PYTHON_TAG = "<|python_tag|>";

/** One call from the JSON text of a call object: name and arguments as written, or the text as a malformed call. */
function callOf(body: string, index: number, argumentKeys: readonly string[]): ToolCall {
  const id = `call_${index}`;
  const members = objectMembers(body.trim());
  const nameText = members?.get("name");
  const name: unknown = nameText === undefined ? undefined : JSON.parse(nameText);
  if (members === undefined || typeof name !== "string")
    return { id, name: typeof name === "string" ? name : "", arguments: body.trim() };
  const argumentsText = argumentKeys.map((key) => members.get(key)).find((text) => text !== undefined);
  return { id, name, arguments: argumentsText ?? "{}" };
}

function parseHermes(text: string): ParsedReply {
  const first = text.indexOf(OPEN);
  if (first === -1) return { content: text, toolCalls: [] };
  const toolCalls: ToolCall[] = [];
  let at = first;
  while (at !== -1) {
    const bodyStart = at + OPEN.length;
    const close = text.indexOf(CLOSE, bodyStart);
    const bodyEnd = close === -1 ? text.length : close;
    toolCalls.push(callOf(text.slice(bodyStart, bodyEnd), toolCalls.length, ["arguments", "parameters"]));
    at = close === -1 ? -1 : text.indexOf(OPEN, close + CLOSE.length);
  }
  return { content: text.slice(0, first).trimEnd(), toolCalls };
}

function parseLlama3Json(text: string): ParsedReply {
  let body = text.trimStart();
  if (body.startsWith(PYTHON_TAG)) body = body.slice(PYTHON_TAG.length).trimStart();
  if (!body.startsWith("{")) return { content: text, toolCalls: [] };
  const toolCalls: ToolCall[] = [];
  let at = 0;
  while (at < body.length) {
    const end = jsonValueEnd(body, at);
    if (end === undefined) {
      // The rest is not a JSON value: one malformed call holding it.
      toolCalls.push(callOf(body.slice(at), toolCalls.length, []));
      break;
    }
    toolCalls.push(callOf(body.slice(at, end), toolCalls.length, ["parameters", "arguments"]));
    at = end;
    while (at < body.length && /[\s;]/.test(body[at]!)) at++;
  }
  return { content: "", toolCalls };
}

/** The content and calls of a reply's text in `format`. */
export function parseToolCalls(text: string, format: ToolCallFormat): ParsedReply {
  return format === "hermes" ? parseHermes(text) : parseLlama3Json(text);
}

/** The text a model writes for content and calls in `format`, as the chat templates write an assistant message
 * (parseToolCalls reads it back; llama3-json writes the calls alone when there are any, as its templates do). */
export function writeToolCalls(content: string, toolCalls: readonly ToolCall[], format: ToolCallFormat): string {
  if (toolCalls.length === 0) return content;
  const objects = toolCalls.map(
    (call) =>
      `{"name": ${JSON.stringify(call.name)}, "${format === "hermes" ? "arguments" : "parameters"}": ${call.arguments}}`,
  );
  if (format === "llama3-json") return objects.join("; ");
  // Qwen3's template writes a blank line after the reasoning, one newline after other text.
  const separator = content === "" ? "" : content.endsWith("</think>") ? "\n\n" : "\n";
  return `${content}${separator}${objects.map((object) => `${OPEN}\n${object}\n${CLOSE}`).join("\n")}`;
}
