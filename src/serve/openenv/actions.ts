// The actions `budgetrl env-server` takes, as OpenEnv step data, and the JSON Schemas /schema gives of them:
//
//   {"message": "<reply>"}                              every env: the agent's reply, read exactly as budgetrl reads
//                                                       it (a reply that does not parse costs the turn)
//   {"message": "...", "tool_calls": [{name, arguments}]}  envs with tools (bfcl): a reply with native tool calls,
//                                                       several at once, as an OpenAI-style assistant message
//   {"type": "call_tool", "tool_name", "arguments"}     envs with tools: OpenEnv's CallToolAction, one call
//   {"type": "list_tools"}                              envs with tools: OpenEnv's ListToolsAction (no turn spent)
//
// An action that is not one of these (a missing message, a field of another type, an unknown field) is refused as
// OpenEnv's pydantic types refuse it (VALIDATION_ERROR), and no turn is spent.
import { z } from "zod";
import type { JsonObject } from "../../core/json.js";
import type { Message, ToolCall } from "../../core/message.js";

/** What a step asks for: a reply to play, or the tool list. */
export type ReadAction =
  { readonly kind: "reply"; readonly message: Message; readonly toolName?: string } | { readonly kind: "list_tools" };

const metadata = z.record(z.string(), z.unknown()).optional();

const toolCallSchema = z.strictObject({
  id: z.string().optional(),
  name: z.string().min(1),
  arguments: z.union([z.record(z.string(), z.unknown()), z.string()]).default({}),
});

const replySchema = z.strictObject({
  type: z.literal("message").optional(),
  message: z.string(),
  metadata,
});

const toolReplySchema = replySchema.extend({ tool_calls: z.array(toolCallSchema).optional() });

const callToolSchema = z.strictObject({
  type: z.literal("call_tool"),
  tool_name: z.string(),
  arguments: z.record(z.string(), z.unknown()).default({}),
  metadata,
});

const listToolsSchema = z.strictObject({ type: z.literal("list_tools"), metadata });

/** The schema of the actions an env takes: text envs the reply; envs with tools, the MCP actions beside. */
export function actionSchema(tools: boolean) {
  return tools ? z.union([callToolSchema, listToolsSchema, toolReplySchema]) : replySchema;
}

/** Why an action is refused (zod's issues, in a line), or the action read. */
export function readAction(
  data: unknown,
  tools: boolean,
  callId: () => string,
): { readonly ok: true; readonly action: ReadAction } | { readonly ok: false; readonly problem: string } {
  const parsed = actionSchema(tools).safeParse(data);
  if (!parsed.success) return { ok: false, problem: z.prettifyError(parsed.error).replace(/\n/g, "; ") };
  const action = parsed.data;
  if ("type" in action && action.type === "list_tools") return { ok: true, action: { kind: "list_tools" } };
  if ("tool_name" in action) {
    const call: ToolCall = { id: callId(), name: action.tool_name, arguments: JSON.stringify(action.arguments) };
    return {
      ok: true,
      action: { kind: "reply", message: { role: "assistant", content: "", toolCalls: [call] }, toolName: call.name },
    };
  }
  const calls = "tool_calls" in action ? (action.tool_calls ?? []) : [];
  const toolCalls = calls.map((call) => ({
    id: call.id ?? callId(),
    name: call.name,
    arguments: typeof call.arguments === "string" ? call.arguments : JSON.stringify(call.arguments),
  }));
  const message: Message =
    toolCalls.length === 0
      ? { role: "assistant", content: action.message }
      : { role: "assistant", content: action.message, toolCalls };
  return { ok: true, action: { kind: "reply", message } };
}

/** The JSON Schema of the action (GET /schema's `action`), as pydantic would write the same model. */
export function actionJsonSchema(tools: boolean): JsonObject {
  return z.toJSONSchema(actionSchema(tools), { io: "input" }) as JsonObject;
}

/** The JSON Schema of the observation (GET /schema's `observation`): observation.ts's fields. */
export function observationJsonSchema(): JsonObject {
  const budget = z.object({ label: z.string(), mode: z.string(), scope: z.string() });
  const message = z.object({ role: z.string(), content: z.string(), tool_call_id: z.string().optional() });
  return z.toJSONSchema(
    z.object({
      text: z.string().describe("the messages the agent reads now, budget sentence included"),
      messages: z.array(message),
      turn: z.number().int(),
      turns_left: z.number().int().nullable().describe("null when the budget is hidden"),
      budget,
      valid_actions: z.array(z.string()).optional(),
      tool_name: z.string().optional(),
      result: z.unknown().optional(),
      error: z.unknown().optional(),
      metadata: z.record(z.string(), z.unknown()),
      done: z.boolean(),
      reward: z.number().nullable(),
    }),
  ) as JsonObject;
}

/** The JSON Schema of the state (GET /schema's `state`). */
export function stateJsonSchema(): JsonObject {
  return z.toJSONSchema(
    z.looseObject({
      episode_id: z.string().nullable(),
      step_count: z.number().int().min(0),
      task_id: z.string().nullable(),
      budget: z.string().nullable(),
      turns_left: z.number().int().nullable(),
      done: z.boolean(),
    }),
  ) as JsonObject;
}
