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

export function chatMessage(message: Message): JsonObject {
  if (message.role === "tool") return { role: "tool", tool_call_id: message.toolCallId ?? "", content: message.content };
  if (message.role === "assistant" && message.toolCalls !== undefined && message.toolCalls.length > 0) {
    return {
      role: "assistant",
      content: message.content === "" ? null : message.content,
      tool_calls: message.toolCalls.map((call) => ({ id: call.id, type: "function", function: { name: call.name, arguments: call.arguments } })),
    };
  }
  return { role: message.role, content: message.content };
}

export function chatTool(tool: ToolSpec): JsonObject {
  return { type: "function", function: { name: tool.name, description: tool.description, parameters: tool.parameters } };
}

/** The request body for a conversation (without seed and n): model, messages, tools, sampling fields. */
export function chatRequest(model: string, conversation: readonly Message[], tools: readonly ToolSpec[], sampling: SamplingOptions): JsonObject {
  const body: Record<string, Json> = { ...sampling.extraBody, model, messages: conversation.map(chatMessage) };
  if (tools.length > 0) body["tools"] = tools.map(chatTool);
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
