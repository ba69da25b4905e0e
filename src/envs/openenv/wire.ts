// OpenEnv's wire format (meta-pytorch/OpenEnv: src/openenv/core/env_server/types.py, mcp_types.py,
// serialization.py), as both sides of budgetrl speak it: `budgetrl env-server` (src/serve/openenv/) reads the
// clients' messages with these schemas, and the openenv env (`--env openenv:URL`, ./index.ts) reads the servers'
// replies with them. test/envs/openenv/fixtures/wire.json (scripts/openenv-wire-fixtures.py, from OpenEnv's own
// pydantic types) pins them.
//
//   WebSocket /ws   client: {type: "reset", data: {seed?, episode_id?, ...}} | {type: "step", data: ACTION}
//                           | {type: "state"} | {type: "close"} | {type: "mcp", data: JSON-RPC request}
//                   server: {type: "observation", data: {observation, reward, done}} | {type: "state", data}
//                           | {type: "error", data: {message, code: WS_ERROR_CODES}} | {type: "mcp", data: JSON-RPC reply}
//   HTTP            GET /health {status}, /metadata, /schema {action, observation, state}, /state; POST /reset,
//                   /step {action} -> {observation, reward, done}; POST /mcp: JSON-RPC 2.0
//   MCP actions     {type: "list_tools"}, {type: "call_tool", tool_name, arguments}; their observations carry
//                   `tools` ([{name, description, input_schema}]) or `tool_name`, `result`, `error`
import { z } from "zod";

/** OpenEnv's WSErrorCode values. */
export const WS_ERROR_CODES = [
  "INVALID_JSON",
  "UNKNOWN_TYPE",
  "VALIDATION_ERROR",
  "EXECUTION_ERROR",
  "CAPACITY_REACHED",
  "FACTORY_ERROR",
  "SESSION_ERROR",
] as const;
export type WsErrorCode = (typeof WS_ERROR_CODES)[number];

/** JSON-RPC 2.0's error codes, as OpenEnv's JsonRpcErrorCode names them. */
export const JSON_RPC_ERRORS = {
  PARSE_ERROR: -32700,
  INVALID_REQUEST: -32600,
  METHOD_NOT_FOUND: -32601,
  INVALID_PARAMS: -32602,
  INTERNAL_ERROR: -32603,
  SERVER_ERROR: -32000,
} as const;

/** Tool names OpenEnv reserves for its own API. */
export const RESERVED_TOOL_NAMES: readonly string[] = ["close", "reset", "state", "step"];

const object = z.record(z.string(), z.unknown());

/** A message a client sends over /ws (BaseMessage: extra fields refused). */
export const wsClientMessageSchema = z.discriminatedUnion("type", [
  z.strictObject({ type: z.literal("reset"), data: object.default({}) }),
  z.strictObject({ type: z.literal("step"), data: object }),
  z.strictObject({ type: z.literal("state") }),
  z.strictObject({ type: z.literal("close") }),
  z.strictObject({ type: z.literal("mcp"), data: object }),
]);
export type WsClientMessage = z.output<typeof wsClientMessageSchema>;

/** An observation as OpenEnv serialises it: the observation's own fields, the reward and done beside them. */
export const stepPayloadSchema = z.object({
  observation: object,
  reward: z.union([z.number(), z.boolean(), z.null()]).optional(),
  done: z.boolean().default(false),
});
export type StepPayload = z.output<typeof stepPayloadSchema>;

/** A reply a server sends over /ws. */
export const wsServerMessageSchema = z.discriminatedUnion("type", [
  z.object({ type: z.literal("observation"), data: stepPayloadSchema }),
  z.object({ type: z.literal("state"), data: object }),
  z.object({
    type: z.literal("error"),
    data: z.looseObject({ message: z.string().default("unknown error"), code: z.string().default("UNKNOWN") }),
  }),
  z.object({ type: z.literal("mcp"), data: object }),
]);
export type WsServerMessage = z.output<typeof wsServerMessageSchema>;

/** OpenEnv's ResetRequest: seed and episode_id, and any field an env reads (extra allowed). */
export const resetRequestSchema = z.looseObject({
  seed: z.number().int().min(0).nullish(),
  episode_id: z.string().max(255).nullish(),
});

/** OpenEnv's StepRequest. */
export const stepRequestSchema = z.looseObject({
  action: object,
  timeout_s: z.number().positive().nullish(),
  request_id: z.string().max(255).nullish(),
});

/** GET /schema's reply: the JSON Schemas of the action, the observation and the state. */
export const schemaResponseSchema = z.object({ action: object, observation: object, state: object });
export type SchemaResponse = z.output<typeof schemaResponseSchema>;

/** GET /metadata's reply (EnvironmentMetadata). */
export const metadataSchema = z.looseObject({ name: z.string(), description: z.string() });

/** A JSON-RPC 2.0 request (OpenEnv's JsonRpcRequest: extra fields refused). */
export const jsonRpcRequestSchema = z.strictObject({
  jsonrpc: z.literal("2.0"),
  method: z.string(),
  params: object.default({}),
  id: z.union([z.string(), z.number().int(), z.null()]).optional(),
});
export type JsonRpcRequest = z.output<typeof jsonRpcRequestSchema>;

/** A JSON-RPC 2.0 reply: a result or an error. */
export const jsonRpcResponseSchema = z.object({
  jsonrpc: z.literal("2.0"),
  id: z.union([z.string(), z.number(), z.null()]).optional(),
  result: z.unknown().optional(),
  error: z.object({ code: z.number(), message: z.string(), data: z.unknown().optional() }).nullish(),
});

/** An MCP tool as OpenEnv lists it (input_schema; MCP's own inputSchema is read too). */
export const mcpToolSchema = z
  .looseObject({
    name: z.string(),
    description: z.string().nullish(),
    input_schema: object.optional(),
    inputSchema: object.optional(),
  })
  .transform((tool) => ({
    name: tool.name,
    description: tool.description ?? "",
    parameters: tool.input_schema ?? tool.inputSchema ?? { type: "object", properties: {} },
  }));

/** OpenEnv's CallToolAction, the one action of an MCP env. */
export function callToolAction(name: string, args: Readonly<Record<string, unknown>>): Record<string, unknown> {
  return { type: "call_tool", tool_name: name, arguments: args };
}

/** A JSON-RPC reply with an error, as OpenEnv's JsonRpcResponse.error_response dumps it. */
export function jsonRpcError(
  code: number,
  message: string,
  id: string | number | null | undefined,
  data: unknown = null,
): Record<string, unknown> {
  return { jsonrpc: "2.0", id: id ?? null, error: { code, message, data } };
}

/** A JSON-RPC reply with a result. */
export function jsonRpcResult(result: unknown, id: string | number | null | undefined): Record<string, unknown> {
  return { jsonrpc: "2.0", id: id ?? null, result };
}

/** A /ws error reply. */
export function wsError(code: WsErrorCode, message: string, extra: Record<string, unknown> = {}): WsServerMessage {
  return { type: "error", data: { message, code, ...extra } };
}
