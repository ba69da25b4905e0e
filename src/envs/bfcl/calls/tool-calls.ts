// OpenAI-style tool calls (a name plus JSON arguments text) to our internal Call. JSON numbers keep Python's
// int/float distinction (1 vs 1.0), as upstream's conversion through repr() and eval() keeps it.
import type { ToolCall } from "../../../core/message.js";
import { parsePyJson } from "../py/json.js";
import type { Call } from "./call.js";

export type ToolCallVerdict =
  | { readonly valid: true; readonly call: Call }
  | { readonly valid: false; readonly errorType: "call_parse:tool_arguments"; readonly message: string };

const NAME = /^[A-Za-z_][A-Za-z0-9_.]*$/;

export function toolCallToCall(toolCall: Pick<ToolCall, "name" | "arguments">): ToolCallVerdict {
  if (!NAME.test(toolCall.name))
    return {
      valid: false,
      errorType: "call_parse:tool_arguments",
      message: `invalid function name ${JSON.stringify(toolCall.name.slice(0, 100))}`,
    };
  let parsed;
  try {
    parsed = toolCall.arguments.trim() === "" ? new Map() : parsePyJson(toolCall.arguments);
  } catch (error) {
    return {
      valid: false,
      errorType: "call_parse:tool_arguments",
      message: `arguments of ${toolCall.name} are not valid JSON: ${(error as Error).message}`,
    };
  }
  if (!(parsed instanceof Map))
    return {
      valid: false,
      errorType: "call_parse:tool_arguments",
      message: `arguments of ${toolCall.name} must be a JSON object`,
    };
  const kwargs = [...parsed].map(([key, value]) => [String(key), value] as const);
  return { valid: true, call: { name: toolCall.name, args: [], kwargs } };
}
