// From a conversation to the body of an OpenAI chat-completions request, as plain JSON (pure functions).
//
//   system / user   -> { role, content }
//   assistant       -> { role: "assistant", content, tool_calls: [{ id, type: "function", function: { name, arguments } }] }
//   tool            -> { role: "tool", tool_call_id, content }
//   tools (BFCL)    -> tools: [{ type: "function", function: { name, description, parameters } }]
//
// Tool calls go back exactly as the model wrote them (arguments text that is not JSON included): the env has
// already answered each with a tool message, so the chat stays valid. The body built here has no `seed` and
// no `n`: it is "the request" of a cache key; the policy adds both per call.
import type { Json, JsonObject } from "../../core/json.js";
import type { Message, ToolSpec } from "../../core/message.js";
import type { SamplingOptions } from "./options.js";

const chatMessages = new WeakMap<Message, JsonObject>();

/** A message as the API takes it; the same message object (a conversation grows turn by turn) gives the same object. */
export function chatMessage(message: Message): JsonObject {
  let mapped = chatMessages.get(message);
  if (mapped === undefined) chatMessages.set(message, (mapped = toChatMessage(message)));
  return mapped;
}

function toChatMessage(message: Message): JsonObject {
  if (message.role === "tool")
    return { role: "tool", tool_call_id: message.toolCallId ?? "", content: message.content };
  if (message.role === "assistant" && message.toolCalls !== undefined && message.toolCalls.length > 0) {
    return {
      role: "assistant",
      content: message.content === "" ? null : message.content,
      tool_calls: message.toolCalls.map((call) => ({
        id: call.id,
        type: "function",
        function: { name: call.name, arguments: call.arguments },
      })),
    };
  }
  return { role: message.role, content: message.content };
}

export function chatTool(tool: ToolSpec): JsonObject {
  return {
    type: "function",
    function: { name: tool.name, description: tool.description, parameters: tool.parameters },
  };
}

const chatToolLists = new WeakMap<readonly ToolSpec[], readonly JsonObject[]>();

/** The `tools` field for a tool list; the same list (an env's tools for many turns) gives the same array. */
export function chatTools(tools: readonly ToolSpec[]): readonly JsonObject[] {
  let mapped = chatToolLists.get(tools);
  if (mapped === undefined) chatToolLists.set(tools, (mapped = tools.map(chatTool)));
  return mapped;
}

/** The request body for a conversation (without seed and n): model, messages, tools, sampling fields. */
export function chatRequest(
  model: string,
  conversation: readonly Message[],
  tools: readonly ToolSpec[],
  sampling: SamplingOptions,
): JsonObject {
  const body: Record<string, Json> = { ...sampling.extraBody, model, messages: conversation.map(chatMessage) };
  if (tools.length > 0) body["tools"] = chatTools(tools);
  body["temperature"] = sampling.temperature;
  body["top_p"] = sampling.topP;
  if (sampling.maxTokens !== undefined) body["max_tokens"] = sampling.maxTokens;
  if (sampling.logprobs) {
    body["logprobs"] = true;
    if (sampling.topLogprobs > 0) body["top_logprobs"] = sampling.topLogprobs;
  }
  if (sampling.tokenIds) {
    body["return_token_ids"] = true;
    if (sampling.logprobs) body["return_tokens_as_token_ids"] = true;
  }
  return body;
}
