// Conversation messages: text in, text out, with OpenAI-style tool calls for envs that have tools.
import type { JsonObject } from "./json.js";

export type Role = "system" | "user" | "assistant" | "tool";

/** A structured call as OpenAI-compatible APIs return it: `arguments` is the JSON text the model wrote. */
export interface ToolCall {
  readonly id: string;
  readonly name: string;
  readonly arguments: string;
}

export interface Message {
  readonly role: Role;
  readonly content: string;
  /** Assistant messages only: structured calls (native tool-call mode). */
  readonly toolCalls?: readonly ToolCall[];
  /** Tool messages only: the id of the call this message answers. */
  readonly toolCallId?: string;
}

/** A function the policy may call (JSON-schema parameters, as in OpenAI's `tools`). */
export interface ToolSpec {
  readonly name: string;
  readonly description: string;
  readonly parameters: JsonObject;
}

export function systemMessage(content: string): Message {
  return { role: "system", content };
}

export function userMessage(content: string): Message {
  return { role: "user", content };
}

export function assistantMessage(content: string, toolCalls?: readonly ToolCall[]): Message {
  return toolCalls === undefined || toolCalls.length === 0
    ? { role: "assistant", content }
    : { role: "assistant", content, toolCalls };
}
