// A policy's reply as an OpenEnv action (the openenv env's step): tool calls become OpenEnv's CallToolAction (or, for
// a server that takes tool_calls, one message with all of them); a text is read as JSON (a ```json fence around it
// is allowed) or, when it is not JSON and the action has one text field, fills that field; the action is then checked
// against the server's JSON Schema. What cannot be an action is a problem, said in one line: the turn is spent.
import { canonicalJson } from "../../core/json.js";
import type { Message } from "../../core/message.js";
import type { ActionSchema } from "./action-schema.js";
import { callToolAction } from "./wire.js";

export type ReadReply =
  | { readonly ok: true; readonly action: unknown; readonly parsed: string }
  | { readonly ok: false; readonly problem: string };

function jsonOf(text: string): unknown {
  const fenced = /^```(?:json)?\s*([\s\S]*?)\s*```$/.exec(text.trim());
  try {
    return JSON.parse(fenced?.[1] ?? text);
  } catch {
    return undefined;
  }
}

function argumentsOf(text: string): Record<string, unknown> | undefined {
  const value = jsonOf(text === "" ? "{}" : text);
  return typeof value === "object" && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}

function checked(action: unknown, schema: ActionSchema, parsed: string): ReadReply {
  const problem = schema.problem(action);
  return problem === undefined ? { ok: true, action, parsed } : { ok: false, problem };
}

export function readReply(message: Message, schema: ActionSchema): ReadReply {
  const calls = message.toolCalls ?? [];
  if (calls.length > 0) {
    const args = calls.map((call) => argumentsOf(call.arguments));
    if (args.some((value) => value === undefined))
      return { ok: false, problem: "a tool call's arguments are not a JSON object" };
    if (schema.toolCalls) {
      const action = {
        message: message.content,
        tool_calls: calls.map((call, i) => ({ id: call.id, name: call.name, arguments: args[i] })),
      };
      return checked(action, schema, canonicalJson(action.tool_calls.map(({ name, arguments: a }) => ({ name, a }))));
    }
    if (!schema.mcp) return { ok: false, problem: "this env takes no tool calls" };
    if (calls.length > 1) return { ok: false, problem: "this env takes one tool call per step" };
    const action = callToolAction(calls[0]!.name, args[0]!);
    return checked(action, schema, canonicalJson(action));
  }
  const value = jsonOf(message.content);
  if (typeof value === "object" && value !== null && !Array.isArray(value))
    return checked(value, schema, canonicalJson(value));
  if (schema.textField !== undefined) return checked({ [schema.textField]: message.content }, schema, message.content);
  return { ok: false, problem: "the reply is not a JSON object (the action's JSON Schema says what one is)" };
}
