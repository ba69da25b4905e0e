// MCP's JSON-RPC 2.0 on `budgetrl env-server`, as OpenEnv's server answers it (over POST /mcp, the WebSocket /mcp,
// and {type: "mcp"} messages on /ws): tools/list gives the episode's functions (bfcl), tools/call plays one call as a
// turn, and OpenEnv's openenv/session/create and openenv/session/close open and close a session over HTTP (it starts
// on the server's default task and budget). An env without tools answers tools/list and tools/call with OpenEnv's
// "Environment does not support MCP".
import { thrownMessage } from "../../core/errors.js";
import type { JsonObject } from "../../core/json.js";
import { JSON_RPC_ERRORS, jsonRpcError, jsonRpcRequestSchema, jsonRpcResult } from "../../envs/openenv/wire.js";
import type { ClientSession } from "./client-session.js";

/** Where a JSON-RPC request is answered: a session of its own (WebSocket), or the HTTP sessions by id. */
export interface McpScope {
  readonly session: ClientSession | undefined;
  readonly withTools: boolean;
  /** HTTP only: open a session (null when the server is full), find one, close one. */
  readonly create?: () => Promise<string | null>;
  readonly find?: (id: string) => ClientSession | undefined;
  readonly close?: (id: string) => boolean;
}

type Id = string | number | null | undefined;

function sessionOf(scope: McpScope, params: Readonly<Record<string, unknown>>): ClientSession | undefined {
  const id = params["session_id"];
  return typeof id === "string" && scope.find !== undefined ? scope.find(id) : scope.session;
}

async function callTool(
  scope: McpScope,
  params: Readonly<Record<string, unknown>>,
  id: Id,
): Promise<Record<string, unknown>> {
  const name = params["name"];
  if (typeof name !== "string" || name === "")
    return jsonRpcError(JSON_RPC_ERRORS.INVALID_PARAMS, "Missing 'name' in params", id);
  const session = sessionOf(scope, params);
  if (session === undefined)
    return jsonRpcError(
      JSON_RPC_ERRORS.INVALID_REQUEST,
      "tools/call plays a turn of an episode: open a session (openenv/session/create) or use /ws",
      id,
    );
  const payload = await session.step({ type: "call_tool", tool_name: name, arguments: params["arguments"] ?? {} });
  const observation = payload.observation;
  const result = observation["result"] as JsonObject;
  return jsonRpcResult({ ...result, isError: false, observation, reward: payload.reward, done: payload.done }, id);
}

async function sessionMethod(method: string, scope: McpScope, params: Readonly<Record<string, unknown>>, id: Id) {
  if (method === "openenv/session/create") {
    const created = scope.create === undefined ? null : await scope.create();
    return created === null
      ? jsonRpcError(JSON_RPC_ERRORS.SERVER_ERROR, "the server is at its --max-sessions", id)
      : jsonRpcResult({ session_id: created }, id);
  }
  const target = params["session_id"];
  if (typeof target !== "string" || target === "")
    return jsonRpcError(JSON_RPC_ERRORS.INVALID_PARAMS, "Invalid params - 'session_id' is required", id);
  return scope.close?.(target) === true
    ? jsonRpcResult({ session_id: target, closed: true }, id)
    : jsonRpcError(JSON_RPC_ERRORS.INVALID_PARAMS, `Unknown session_id: ${target}`, id);
}

/** The reply to one JSON-RPC request (already parsed from JSON). */
export async function answerMcp(body: unknown, scope: McpScope): Promise<Record<string, unknown>> {
  const parsed = jsonRpcRequestSchema.safeParse(body);
  if (!parsed.success) return jsonRpcError(JSON_RPC_ERRORS.INVALID_REQUEST, "Invalid request", null);
  const { method, params, id } = parsed.data;
  if (method === "openenv/session/create" || method === "openenv/session/close")
    return sessionMethod(method, scope, params, id);
  if (method !== "tools/list" && method !== "tools/call")
    return jsonRpcError(JSON_RPC_ERRORS.METHOD_NOT_FOUND, `Method not found: ${method}`, id);
  if (!scope.withTools) return jsonRpcError(JSON_RPC_ERRORS.INTERNAL_ERROR, "Environment does not support MCP", id);
  try {
    if (method === "tools/call") return await callTool(scope, params, id);
    const session = sessionOf(scope, params);
    return jsonRpcResult({ tools: session?.tools("mcp") ?? [] }, id);
  } catch (error) {
    return jsonRpcError(JSON_RPC_ERRORS.INTERNAL_ERROR, thrownMessage(error), id);
  }
}
