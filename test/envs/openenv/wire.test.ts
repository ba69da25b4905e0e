import { describe, expect, it } from "vitest";
import {
  JSON_RPC_ERRORS,
  jsonRpcRequestSchema,
  jsonRpcResponseSchema,
  mcpToolSchema,
  RESERVED_TOOL_NAMES,
  resetRequestSchema,
  schemaResponseSchema,
  stepPayloadSchema,
  stepRequestSchema,
  WS_ERROR_CODES,
  wsClientMessageSchema,
  wsServerMessageSchema,
} from "../../../src/envs/openenv/wire.js";
import { wire } from "./fixtures.js";

const messages = (prefix: string) => Object.entries(wire.messages).filter(([name]) => name.startsWith(prefix));

describe("OpenEnv's wire format, from its pydantic types", () => {
  it("has the error codes and reserved names OpenEnv has", () => {
    expect([...WS_ERROR_CODES]).toEqual(wire.wsErrorCodes);
    expect(JSON_RPC_ERRORS).toEqual(wire.jsonRpcErrorCodes);
    expect([...RESERVED_TOOL_NAMES]).toEqual(wire.reservedToolNames);
  });

  it("reads every message a client sends over /ws", () => {
    for (const name of ["ws.reset", "ws.reset.empty", "ws.step", "ws.state", "ws.close", "ws.mcp"])
      expect(wsClientMessageSchema.safeParse(wire.messages[name]).success, name).toBe(true);
    expect(wsClientMessageSchema.safeParse({ type: "step" }).success).toBe(false);
    expect(wsClientMessageSchema.safeParse({ type: "state", extra: 1 }).success).toBe(false);
  });

  it("reads every reply a server sends over /ws, errors with their codes", () => {
    const replies = [...messages("ws.error."), ...messages("ws.observation"), ...messages("ws.state.reply")];
    for (const [name, message] of [...replies, ["ws.mcp.reply", wire.messages["ws.mcp.reply"]] as const]) {
      const parsed = wsServerMessageSchema.safeParse(message);
      expect(parsed.success, name).toBe(true);
    }
    expect(messages("ws.error.")).toHaveLength(WS_ERROR_CODES.length);
  });

  it("reads the HTTP bodies, JSON-RPC and MCP tools", () => {
    expect(resetRequestSchema.safeParse(wire.messages["http.reset.request"]).success).toBe(true);
    expect(stepRequestSchema.safeParse(wire.messages["http.step.request"]).success).toBe(true);
    expect(stepPayloadSchema.safeParse(wire.messages["http.step.response"]).success).toBe(true);
    expect(schemaResponseSchema.safeParse(wire.messages["http.schema"]).success).toBe(true);
    expect(jsonRpcRequestSchema.safeParse(wire.messages["jsonrpc.request"]).success).toBe(true);
    for (const [name, reply] of [...messages("jsonrpc.error."), ["jsonrpc.result", wire.messages["jsonrpc.result"]]])
      expect(jsonRpcResponseSchema.safeParse(reply).success, String(name)).toBe(true);
    const listed = wire.messages["observation.list_tools"] as { observation: { tools: unknown[] } };
    expect(mcpToolSchema.parse(listed.observation.tools[0])).toEqual({
      name: "ls",
      description: "List a folder.",
      parameters: { properties: {}, type: "object" },
    });
  });
});
